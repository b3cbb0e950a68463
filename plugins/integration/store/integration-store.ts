import { randomUUID } from 'node:crypto';
import {
  CachedTable,
  type Database,
  type Logger,
  nowIso,
  readJson,
  refuseDuplicate,
  type SecretBox,
  secretHint,
  toBool,
  toIso,
  VelaError,
  writeJson,
} from 'vela/plugin';
import type { VendorId } from '../vendors.js';

export const PROXY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export type ProxyMethod = (typeof PROXY_METHODS)[number];

/**
 * What an instance forwards unless it says otherwise: reads only. The proxy is public, so whatever an instance's
 * headers grant is granted to anyone; a write must be opted into per instance.
 */
export const DEFAULT_PROXY_METHODS: readonly ProxyMethod[] = ['GET', 'HEAD'];

/** An integration instance as the administration API answers it: header values are never shown, only a hint. */
export interface Integration {
  id: string;
  title: string;
  description: string;
  vendor: VendorId;
  endpoint: string;
  enabled: boolean;
  /** Path prefixes (after the id) the proxy forwards; [] forwards any path. */
  allowedPaths: string[];
  /** Methods the proxy forwards (HEAD also when GET is listed). */
  allowedMethods: ProxyMethod[];
  /** Headers the proxy adds: their names and a hint of each value (`…ab12`). */
  headers: Array<{ name: string; hint: string }>;
  createdAt: string;
  updatedAt: string;
}

/** A header as a client sends it: without `value`, an update keeps the value stored under that name. */
export interface HeaderInput {
  name: string;
  value?: string;
}

export interface IntegrationInput {
  id?: string;
  title: string;
  description?: string;
  vendor: VendorId;
  endpoint: string;
  enabled?: boolean;
  allowedPaths?: string[];
  allowedMethods?: ProxyMethod[];
  headers?: HeaderInput[];
}

/** What the proxy needs of an instance: its settings and the headers to add, decrypted. */
export interface ProxyTarget {
  integration: Integration;
  headers: Record<string, string>;
}

interface StoredHeader {
  name: string;
  /** `v1:...`, AES-256-GCM bound to `<instance id>:<header name, lower case>`. */
  value: string;
  hint: string;
}

interface Row {
  id: string;
  title: string;
  description: string;
  vendor: string;
  endpoint: string;
  enabled: unknown;
  allowed_paths: unknown;
  allowed_methods: unknown;
  headers: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export const integrationErrors = {
  notFound: (id: string) => new VelaError('integration_not_found', `no integration instance with id "${id}"`, 404),
  disabled: (id: string) => new VelaError('integration_not_found', `integration instance "${id}" is disabled`, 404),
  idTaken: (id: string) =>
    new VelaError('integration_exists', `an integration instance with id "${id}" already exists`, 409),
  headerWithoutValue: (name: string) =>
    new VelaError(
      'validation_failed',
      `headers: "${name}" has no value, and the instance has none stored under that name to keep`,
      400,
    ),
  // 503, not 500 or 4xx: the request is fine, the server's state is not; the instance is unavailable until an
  // administrator sets its headers again (or gives this process the key they were sealed with).
  undecryptable: (id: string) =>
    new VelaError(
      'integration_secret_unreadable',
      `integration instance "${id}" is unavailable: its stored headers cannot be decrypted with this process's key (VELA_SECRET_KEY, or <data>/integration/secret.key); an administrator must set them again`,
      503,
    ),
};

/** The table of integration instances. */
export const INSTANCES_TABLE = 'integration_instances';

/**
 * Integration instances, written to `integration_instances` and held in memory (the proxy looks them up on
 * every request without a database round trip; other processes' writes arrive with `load`, on their notice and at
 * each poll).
 */
export class IntegrationStore {
  private readonly byId: CachedTable<Row, Entry>;

  constructor(
    private readonly db: Database,
    private readonly secrets: () => SecretBox,
    logger: Logger,
    /** Tells the other processes sharing the database that a write committed (they reload at once). */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {
    this.byId = new CachedTable({ db, table: INSTANCES_TABLE, keyOf: (row) => row.id, fromRow, logger });
  }

  load(): Promise<void> {
    return this.byId.load();
  }

  list(): Integration[] {
    return this.byId
      .values()
      .map((e) => e.integration)
      .sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  }

  get(id: string): Integration {
    const entry = this.byId.get(id);
    if (!entry) throw integrationErrors.notFound(id);
    return entry.integration;
  }

  /** The instance the proxy forwards to with its headers decrypted; 404 when unknown or disabled. */
  target(id: string): ProxyTarget {
    const entry = this.byId.get(id);
    if (!entry) throw integrationErrors.notFound(id);
    if (!entry.integration.enabled) throw integrationErrors.disabled(id);
    const headers: Record<string, string> = {};
    for (const header of entry.headers) {
      const value = this.secrets().decrypt(header.value, bindingOf(id, header.name));
      if (value === null) throw integrationErrors.undecryptable(id);
      headers[header.name.toLowerCase()] = value;
    }
    return { integration: entry.integration, headers };
  }

  async create(input: IntegrationInput): Promise<Integration> {
    const id = input.id ?? randomUUID();
    if (this.byId.has(id)) throw integrationErrors.idTaken(id);
    const stamp = nowIso();
    const headers = this.sealHeaders(id, input.headers ?? [], []);
    const row = {
      id,
      title: input.title,
      description: input.description ?? '',
      vendor: input.vendor,
      endpoint: input.endpoint,
      enabled: input.enabled ?? true,
      allowed_paths: writeJson(input.allowedPaths ?? []),
      allowed_methods: writeJson(input.allowedMethods ?? DEFAULT_PROXY_METHODS),
      headers: writeJson(headers),
      created_at: stamp,
      updated_at: stamp,
    };
    // Another process may have created the id since this one last loaded: its primary key refuses the row.
    await refuseDuplicate(
      () => this.db(INSTANCES_TABLE).insert(row),
      () => integrationErrors.idTaken(id),
    );
    const entry = fromRow(row);
    this.byId.set(id, entry);
    await this.announce();
    return entry.integration;
  }

  async update(id: string, patch: Partial<IntegrationInput>): Promise<Integration> {
    const current = this.byId.get(id);
    if (!current) throw integrationErrors.notFound(id);
    const changes: Partial<Row> & { updated_at: string } = { updated_at: nowIso() };
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.vendor !== undefined) changes.vendor = patch.vendor;
    if (patch.endpoint !== undefined) changes.endpoint = patch.endpoint;
    if (patch.enabled !== undefined) changes.enabled = patch.enabled;
    if (patch.allowedPaths !== undefined) changes.allowed_paths = writeJson(patch.allowedPaths);
    if (patch.allowedMethods !== undefined) changes.allowed_methods = writeJson(patch.allowedMethods);
    if (patch.headers !== undefined) changes.headers = writeJson(this.sealHeaders(id, patch.headers, current.headers));
    const updated = await this.db(INSTANCES_TABLE).where({ id }).update(changes);
    if (updated === 0) throw integrationErrors.notFound(id);
    const row = await this.db<Row>(INSTANCES_TABLE).where({ id }).first();
    const entry = fromRow(row!);
    this.byId.set(id, entry);
    await this.announce();
    return entry.integration;
  }

  async delete(id: string): Promise<Integration> {
    const current = this.get(id);
    await this.db(INSTANCES_TABLE).where({ id }).delete();
    this.byId.delete(id);
    await this.announce();
    return current;
  }

  /** New values encrypted; a header given without a value keeps the one stored under its name. */
  private sealHeaders(id: string, given: HeaderInput[], stored: StoredHeader[]): StoredHeader[] {
    return given.map(({ name, value }) => {
      if (value === undefined) {
        const kept = stored.find((h) => h.name.toLowerCase() === name.toLowerCase());
        if (!kept) throw integrationErrors.headerWithoutValue(name);
        return { ...kept, name };
      }
      return { name, value: this.secrets().encrypt(value, bindingOf(id, name)), hint: secretHint(value) };
    });
  }
}

/**
 * A sealed header value belongs to one instance and one header name: copied elsewhere it does not decrypt. The
 * prefix is fixed, whatever the table is called: every stored value is bound with it, and another would not open them.
 */
function bindingOf(id: string, name: string): string {
  return `search_integrations:${id}:${name.toLowerCase()}`;
}

/** An instance as memory holds it: what the API shows, and the sealed header values the proxy adds. */
interface Entry {
  integration: Integration;
  headers: StoredHeader[];
}

function fromRow(row: Row): Entry {
  const column = (name: string) => ({ table: INSTANCES_TABLE, column: name, row: row.id });
  const headers = readJson<StoredHeader[]>(row.headers, column('headers'));
  return {
    integration: {
      id: row.id,
      title: row.title,
      description: row.description ?? '',
      vendor: row.vendor as VendorId,
      endpoint: row.endpoint,
      enabled: toBool(row.enabled),
      allowedPaths: readJson<string[]>(row.allowed_paths, column('allowed_paths')),
      allowedMethods: readJson<ProxyMethod[]>(row.allowed_methods, column('allowed_methods')),
      headers: headers.map((h) => ({ name: h.name, hint: h.hint })),
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    },
    headers,
  };
}

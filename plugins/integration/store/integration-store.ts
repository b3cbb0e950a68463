import { randomUUID } from 'node:crypto';
import {
  CachedTable,
  col,
  type Database,
  type Logger,
  nowIso,
  refuseDuplicate,
  rowCodec,
  type SecretBox,
  secretHint,
  type TableRow,
  VelaError,
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

/** An instance as its row holds it: the headers with their sealed values. */
type IntegrationRow = Omit<Integration, 'headers'> & { headers: StoredHeader[] };

/** The table of integration instances. */
export const INSTANCES_TABLE = 'integration_instances';

const instances = rowCodec<IntegrationRow>(INSTANCES_TABLE, {
  id: 'id',
  title: 'title',
  description: col.text('description'),
  vendor: 'vendor',
  endpoint: 'endpoint',
  enabled: col.bool('enabled'),
  allowedPaths: col.json('allowed_paths'),
  allowedMethods: col.json('allowed_methods'),
  headers: col.json('headers'),
  createdAt: col.timestamp('created_at'),
  updatedAt: col.timestamp('updated_at'),
});

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

/**
 * Integration instances, written to `integration_instances` and held in memory (the proxy looks them up on
 * every request without a database round trip; other processes' writes arrive with `load`, on their notice and at
 * each poll).
 */
export class IntegrationStore {
  private readonly byId: CachedTable<TableRow, Entry>;

  constructor(
    private readonly db: Database,
    private readonly secrets: () => SecretBox,
    logger: Logger,
    /** Tells the other processes sharing the database that a write committed (they reload at once). */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {
    this.byId = new CachedTable({ db, ...instances, fromRow: entryOf, logger });
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
    const row = instances.toRow({
      id,
      title: input.title,
      description: input.description ?? '',
      vendor: input.vendor,
      endpoint: input.endpoint,
      enabled: input.enabled ?? true,
      allowedPaths: input.allowedPaths ?? [],
      allowedMethods: [...(input.allowedMethods ?? DEFAULT_PROXY_METHODS)],
      headers: this.sealHeaders(id, input.headers ?? [], []),
      createdAt: stamp,
      updatedAt: stamp,
    });
    // Another process may have created the id since this one last loaded: its primary key refuses the row.
    await refuseDuplicate(
      () => this.db(INSTANCES_TABLE).insert(row),
      () => integrationErrors.idTaken(id),
    );
    const entry = entryOf(row);
    this.byId.set(id, entry);
    await this.announce();
    return entry.integration;
  }

  async update(id: string, patch: Partial<IntegrationInput>): Promise<Integration> {
    const current = this.byId.get(id);
    if (!current) throw integrationErrors.notFound(id);
    const { title, description, vendor, endpoint, enabled, allowedPaths, allowedMethods, headers } = patch;
    const changes = instances.toColumns({
      title,
      description,
      vendor,
      endpoint,
      enabled,
      allowedPaths,
      allowedMethods,
      headers: headers && this.sealHeaders(id, headers, current.headers),
      updatedAt: nowIso(),
    });
    const updated = await this.db(INSTANCES_TABLE).where({ id }).update(changes);
    if (updated === 0) throw integrationErrors.notFound(id);
    const entry = entryOf(await this.db(INSTANCES_TABLE).where({ id }).first());
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

function entryOf(row: TableRow): Entry {
  const { headers, ...fields } = instances.fromRow(row);
  return { integration: { ...fields, headers: headers.map((h) => ({ name: h.name, hint: h.hint })) }, headers };
}

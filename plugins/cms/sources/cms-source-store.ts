import { randomUUID } from 'node:crypto';
import { type Database, nowIso, readJson, refuseDuplicate, type SecretBox, toIso, writeJson } from 'vela/plugin';
import { cmsErrors } from '../errors.js';
import { type CmsSource, type CmsSourceInput, checkSource } from './cms-source.js';

const TABLE = 'cms_sources';

interface SourceRow {
  id: string;
  name: string;
  settings: unknown;
  password: string;
  created_at: string;
  updated_at: string;
}

type Settings = Omit<CmsSourceInput, 'password'>;

/**
 * The content-repository sources, in the database only (every read goes there, so processes sharing it agree).
 * The password is sealed with the plugin's secret box, bound to the source's id, and leaves only through
 * `password()` for the source kind's requests.
 */
export class CmsSourceStore {
  constructor(
    private readonly db: Database,
    private readonly secrets: () => SecretBox,
  ) {}

  async list(): Promise<CmsSource[]> {
    const rows = (await this.db<SourceRow>(TABLE).select().orderBy('name')) as SourceRow[];
    return rows.map((row) => this.fromRow(row));
  }

  async find(id: string): Promise<CmsSource | undefined> {
    const row = (await this.db<SourceRow>(TABLE).where({ id }).first()) as SourceRow | undefined;
    return row && this.fromRow(row);
  }

  async get(id: string): Promise<CmsSource> {
    const source = await this.find(id);
    if (!source) throw cmsErrors.idNotFound(id);
    return source;
  }

  async findByName(name: string): Promise<CmsSource | undefined> {
    const row = (await this.db<SourceRow>(TABLE).where({ name }).first()) as SourceRow | undefined;
    return row && this.fromRow(row);
  }

  /** The repository password of a source; null when it cannot be opened (another key, or altered). */
  async password(id: string): Promise<string | null> {
    const row = (await this.db<SourceRow>(TABLE).where({ id }).first()) as SourceRow | undefined;
    return row ? this.secrets().decrypt(row.password, binding(id)) : null;
  }

  async create(input: CmsSourceInput & { password: string }): Promise<CmsSource> {
    const problems = checkSource(input);
    if (problems.length > 0) throw cmsErrors.invalid(problems);
    if (await this.findByName(input.name)) throw cmsErrors.sourceExists(input.name);
    const id = randomUUID();
    const stamp = nowIso();
    // Two creates of one name at once: the second meets the unique index.
    await refuseDuplicate(
      () =>
        this.db(TABLE).insert({
          id,
          name: input.name,
          settings: writeJson(settingsOf(input)),
          password: this.secrets().encrypt(input.password, binding(id)),
          created_at: stamp,
          updated_at: stamp,
        }),
      () => cmsErrors.sourceExists(input.name),
    );
    return this.get(id);
  }

  /** Replace a source's settings; its password only when one is given. */
  async update(id: string, input: CmsSourceInput): Promise<CmsSource> {
    const problems = checkSource(input);
    if (problems.length > 0) throw cmsErrors.invalid(problems);
    const changes: Partial<SourceRow> = { settings: writeJson(settingsOf(input)), updated_at: nowIso() };
    if (input.password !== undefined) changes.password = this.secrets().encrypt(input.password, binding(id));
    const changed = await this.db(TABLE).where({ id }).update(changes);
    if (changed === 0) throw cmsErrors.idNotFound(id);
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ id }).delete()) > 0;
  }

  private fromRow(row: SourceRow): CmsSource {
    const settings = readJson<Settings>(row.settings, { table: TABLE, column: 'settings', row: row.id });
    return {
      id: row.id,
      ...settings,
      name: row.name,
      passwordSet: row.password.length > 0,
      created: toIso(row.created_at),
      modified: toIso(row.updated_at),
    };
  }
}

/** A sealed password opens only for the source it was written for. */
function binding(id: string): string {
  return `cms_sources:${id}:password`;
}

/** The settings column: everything but what has a column of its own (and the server-set members). */
function settingsOf(input: CmsSourceInput): Omit<Settings, 'name'> {
  const { name: _name, password: _password, ...rest } = input as CmsSourceInput & Record<string, unknown>;
  for (const key of ['id', 'passwordSet', 'created', 'modified']) delete (rest as Record<string, unknown>)[key];
  return rest as Omit<Settings, 'name'>;
}

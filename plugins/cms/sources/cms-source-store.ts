import { randomUUID } from 'node:crypto';
import { col, type Database, nowIso, refuseDuplicate, rowCodec, type SecretBox } from 'vela/plugin';
import { cmsErrors } from '../errors.js';
import { type CmsSource, type CmsSourceInput, checkSource } from './cms-source.js';

type Settings = Omit<CmsSourceInput, 'password'>;

/** A source as its row holds it: the settings in one JSON column, the password sealed. */
interface StoredSource {
  id: string;
  name: string;
  settings: Omit<Settings, 'name'>;
  password: string;
  created: string;
  modified: string;
}

const sources = rowCodec<StoredSource>('cms_sources', {
  id: 'id',
  name: 'name',
  settings: col.json('settings'),
  password: 'password',
  created: col.timestamp('created_at'),
  modified: col.timestamp('updated_at'),
});
const TABLE = sources.table;

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
    return (await sources.all(this.db(TABLE).select().orderBy('name'))).map(sourceOf);
  }

  async find(id: string): Promise<CmsSource | undefined> {
    const stored = await sources.first(this.db(TABLE).where({ id }));
    return stored && sourceOf(stored);
  }

  async get(id: string): Promise<CmsSource> {
    const source = await this.find(id);
    if (!source) throw cmsErrors.idNotFound(id);
    return source;
  }

  async findByName(name: string): Promise<CmsSource | undefined> {
    const stored = await sources.first(this.db(TABLE).where({ name }));
    return stored && sourceOf(stored);
  }

  /** The repository password of a source; null when it cannot be opened (another key, or altered). */
  async password(id: string): Promise<string | null> {
    const row = (await this.db(TABLE).select('password').where({ id }).first()) as { password: string } | undefined;
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
        this.db(TABLE).insert(
          sources.toRow({
            id,
            name: input.name,
            settings: settingsOf(input),
            password: this.secrets().encrypt(input.password, binding(id)),
            created: stamp,
            modified: stamp,
          }),
        ),
      () => cmsErrors.sourceExists(input.name),
    );
    return this.get(id);
  }

  /** Replace a source's settings; its password only when one is given. */
  async update(id: string, input: CmsSourceInput): Promise<CmsSource> {
    const problems = checkSource(input);
    if (problems.length > 0) throw cmsErrors.invalid(problems);
    const password = input.password === undefined ? undefined : this.secrets().encrypt(input.password, binding(id));
    const changes = sources.toColumns({ settings: settingsOf(input), password, modified: nowIso() });
    const changed = await this.db(TABLE).where({ id }).update(changes);
    if (changed === 0) throw cmsErrors.idNotFound(id);
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ id }).delete()) > 0;
  }
}

/** A source as the API shows it: never its password, only whether it has one. */
function sourceOf({ id, name, settings, password, created, modified }: StoredSource): CmsSource {
  return { id, ...settings, name, passwordSet: password.length > 0, created, modified };
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

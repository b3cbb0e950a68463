import cron from 'node-cron';
import {
  col,
  type Database,
  type Logger,
  nowIso,
  refuseDuplicate,
  rowCodec,
  type TableRow,
  toIso,
  VelaError,
} from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import type { SourceKindRegistry } from './source-kind-registry.js';

/** plugin: made by another plugin through `connector.sources`; only that plugin changes it. */
export type SourceOrigin = 'config' | 'api' | 'seed' | 'plugin';

/** A named source: what to read (kind, settings), where it goes (sites, locale) and when (schedule). */
export interface Source {
  name: string;
  kind: string;
  description: string;
  sites: string[];
  locale: string;
  schedule: string | null;
  settings: Record<string, unknown>;
  origin: SourceOrigin;
  created: string;
  modified: string;
}

export type SourceInput = Pick<Source, 'name' | 'kind' | 'sites'> &
  Partial<Pick<Source, 'description' | 'locale' | 'schedule' | 'settings'>>;

const sourceRows = rowCodec<Source>(
  'connector_sources',
  {
    name: 'name',
    kind: 'kind',
    description: 'description',
    sites: col.json('sites'),
    locale: 'locale',
    schedule: 'schedule',
    settings: col.json('settings'),
    origin: 'origin',
    created: col.timestamp('created_at'),
    modified: col.timestamp('updated_at'),
  },
  'name',
);
const TABLE = sourceRows.table;
/** What the loads read of a row before the codec does. */
type SourceRow = TableRow & { name: string; kind: string; updated_at: unknown };
/**
 * Names that are paths of the API next to a source name (GET /source/structure, /source/kinds,
 * /monitoring/indexing/stats): a source of that name could not be reached there. Express matches
 * paths in any case, so neither may "Stats".
 */
const RESERVED_NAMES = new Set(['structure', 'kinds', 'stats']);

/**
 * Sources from the configuration file (read-only here) and from the admin API (stored), held in
 * memory. Every write checks the kind's settings and the cron expression before it is stored.
 */
export class SourceStore {
  private readonly sources = new Map<string, Source>();
  private readonly listeners: Array<(name: string, source: Source | null) => void> = [];
  /** Stored sources this start could not load (their kind's plugin is missing): the name stays taken. */
  private readonly unloadable = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly kinds: SourceKindRegistry,
    private readonly logger: Logger,
    /** Tells the other processes after a committed write. */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {}

  onChange(listener: (name: string, source: Source | null) => void): void {
    this.listeners.push(listener);
  }

  /** Stored sources, then the configuration's (a configured name replaces a stored one). */
  async load(configured: SourceInput[]): Promise<void> {
    this.sources.clear();
    this.unloadable.clear();
    for (const row of (await this.db(TABLE).select()) as SourceRow[]) {
      try {
        this.sources.set(row.name, this.fromRow(row));
      } catch (error) {
        this.unloadable.set(row.name, row.kind);
        this.logger.warn(
          { source: row.name, kind: row.kind, err: error },
          'stored source skipped: its kind is not loaded or its settings no longer fit',
        );
      }
    }
    const stamp = nowIso();
    for (const [i, input] of configured.entries()) {
      let source: Source;
      try {
        this.refusePluginOnly(input.kind);
        source = this.check({ ...input }, 'config', stamp, stamp);
      } catch (error) {
        // A bad configured source stops the start with one line naming it, as any bad configuration does.
        throw new VelaError(
          'E_CONFIG_INVALID',
          `invalid configuration (plugins.connector): sources[${i}] ("${input.name}"): ${(error as Error).message}`,
          500,
        );
      }
      if (this.sources.has(source.name))
        this.logger.warn({ source: source.name }, 'a configured source replaces the stored one of the same name');
      this.sources.set(source.name, source);
    }
    for (const source of this.sources.values()) this.emit(source.name, source);
  }

  /**
   * Pick up what other processes sharing the database did through their API: stored sources created,
   * changed (by their modification time) or deleted since, announced like local writes.
   */
  async refresh(): Promise<void> {
    const startedAt = nowIso();
    const rows = (await this.db(TABLE).select()) as SourceRow[];
    const stored = new Set(rows.map((r) => r.name));
    for (const row of rows) {
      const known = this.sources.get(row.name);
      if (
        known?.origin === 'config' ||
        (known && known.modified === toIso(row.updated_at)) ||
        (!known && this.unloadable.has(row.name))
      )
        continue;
      try {
        const source = this.fromRow(row);
        this.sources.set(row.name, source);
        this.emit(row.name, source);
      } catch (error) {
        this.unloadable.set(row.name, row.kind);
        this.logger.warn(
          { source: row.name, kind: row.kind, err: error },
          'stored source skipped: its kind is not loaded or its settings no longer fit',
        );
      }
    }
    for (const [name, source] of this.sources) {
      // A source this process wrote while the rows were read is not gone.
      if (source.origin === 'config' || stored.has(name) || source.modified >= startedAt) continue;
      this.sources.delete(name);
      this.emit(name, null);
    }
  }

  list(): Source[] {
    return [...this.sources.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  find(name: string): Source | undefined {
    return this.sources.get(name);
  }

  get(name: string): Source {
    const source = this.sources.get(name);
    if (!source) throw connectorErrors.sourceNotFound(name);
    return source;
  }

  async create(input: SourceInput, origin: Exclude<SourceOrigin, 'config'> = 'api'): Promise<Source> {
    if (this.sources.has(input.name) || this.unloadable.has(input.name)) throw connectorErrors.sourceExists(input.name);
    const stamp = nowIso();
    const source = this.check(input, origin, stamp, stamp);
    // Two creates of one name at once (here or in another process): the second meets the primary key.
    await refuseDuplicate(
      () => this.db(TABLE).insert(sourceRows.toRow(source)),
      () => connectorErrors.sourceExists(source.name),
    );
    this.sources.set(source.name, source);
    this.emit(source.name, source);
    await this.announce();
    return source;
  }

  /** `byOwner`: the plugin that made a `plugin` source changes it (through `connector.sources`). */
  async update(name: string, input: SourceInput, byOwner = false): Promise<Source> {
    const existing = this.get(name);
    this.checkWritable(existing, byOwner);
    const source = this.check({ ...input, name }, existing.origin, existing.created, nowIso());
    await this.db(TABLE).where({ name }).update(sourceRows.toRow(source));
    this.sources.set(name, source);
    this.emit(name, source);
    await this.announce();
    return source;
  }

  async delete(name: string, byOwner = false): Promise<Source> {
    const existing = this.get(name);
    this.checkWritable(existing, byOwner);
    await this.db(TABLE).where({ name }).delete();
    this.sources.delete(name);
    this.emit(name, null);
    await this.announce();
    return existing;
  }

  /** Configured sources change in the configuration file; a plugin's sources through that plugin. */
  checkWritable(source: Source, byOwner = false): void {
    if (source.origin === 'config') throw connectorErrors.sourceReadOnly(source.name);
    if (source.origin === 'plugin' && !byOwner) throw connectorErrors.sourceOfPlugin(source.name, source.kind);
  }

  /**
   * A kind only its plugin makes sources of has settings that name that plugin's records, which the plugin
   * keeps in step with the connector sources it made: one written in the configuration file would point at a
   * record the plugin does not know runs here, so it is refused rather than half working.
   */
  private refusePluginOnly(kindName: string): void {
    if (!this.kinds.has(kindName)) return;
    const kind = this.kinds.get(kindName);
    if (kind.pluginOnly)
      throw new VelaError(
        'E_CONFIG_INVALID',
        `kind "${kindName}" cannot be configured here: its sources are made only by its plugin (${kind.description}); remove it from plugins.connector.sources`,
        500,
      );
  }

  private check(input: SourceInput, origin: SourceOrigin, created: string, modified: string): Source {
    if (RESERVED_NAMES.has(input.name.toLowerCase()))
      throw connectorErrors.invalidParameter(
        'name',
        `must not be ${[...RESERVED_NAMES].map((n) => `"${n}"`).join(', ')} in any case (paths of the API), got ${JSON.stringify(input.name)}`,
      );
    const schedule = input.schedule ?? null;
    if (schedule !== null && !cron.validate(schedule))
      throw connectorErrors.invalidParameter(
        'schedule',
        `must be a cron expression such as "0 3 * * *", got ${JSON.stringify(schedule)}`,
      );
    return {
      name: input.name,
      kind: input.kind,
      description: input.description ?? '',
      sites: [...input.sites],
      locale: input.locale ?? 'en_US',
      schedule,
      settings: this.kinds.checkSettings(input.kind, input.settings ?? {}),
      origin,
      created,
      modified,
    };
  }

  /** A stored source, checked as a written one is (its kind's settings, its schedule). */
  private fromRow(row: SourceRow): Source {
    const stored = sourceRows.fromRow(row);
    return this.check(stored, stored.origin, stored.created, stored.modified);
  }

  private emit(name: string, source: Source | null): void {
    for (const listener of this.listeners) listener(name, source);
  }
}

import { CachedTable, col, type Database, type Logger, nowIso, rowCodec, type TableRow } from 'vela/plugin';

/** A site's semantic search settings. */
export interface SemanticSettings {
  enabled: boolean;
  /** 'builtin' (the built-in embedder) or an LLM instance id. */
  embedder: string;
  /** The fields embedded; empty: the site's default text fields. */
  fields: string[];
  passageChars: number;
  passageOverlap: number;
  /** Reciprocal rank fusion's k. */
  rrfK: number;
  /** How many results each side of a hybrid search contributes. */
  window: number;
  /** false: the site has no row and these are the defaults. */
  custom: boolean;
  updatedAt: string | null;
}

export type SemanticSettingsPatch = Partial<Omit<SemanticSettings, 'custom' | 'updatedAt'>>;

export const BUILTIN_EMBEDDER = 'builtin';

/** What a site without a row of its own has (enabled is the store's `enabledByDefault`). */
export const DEFAULT_SETTINGS: Omit<SemanticSettings, 'enabled' | 'custom' | 'updatedAt'> = {
  embedder: BUILTIN_EMBEDDER,
  fields: [],
  passageChars: 1000,
  passageOverlap: 100,
  rrfK: 60,
  window: 100,
};

const settingsRows = rowCodec<Omit<SemanticSettings, 'custom'>>(
  'semantic_site_settings',
  {
    enabled: col.bool('enabled'),
    embedder: 'embedder',
    fields: col.json<string[]>('fields', []),
    passageChars: col.number('passage_chars'),
    passageOverlap: col.number('passage_overlap'),
    rrfK: col.number('rrf_k'),
    window: col.number('window_size'),
    updatedAt: col.timestamp('updated_at'),
  },
  'site_id',
);
const TABLE = settingsRows.table;

/** Ids per DELETE. */
const PRUNE_BATCH = 500;

/**
 * Each site's semantic settings by site id (`semantic_site_settings`), held in memory: the search path reads them
 * on every request. Other processes' writes come in through `load` (the plugin's StoreRefresh calls it).
 * Values are checked by the routes; the store keeps what it is given.
 */
export class SemanticSettingsStore {
  private readonly bySite: CachedTable<TableRow, SemanticSettings>;

  constructor(
    private readonly db: Database,
    logger: Logger,
    private readonly enabledByDefault = false,
    /** Tells the other processes after a committed write. */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {
    const fromRow = (row: TableRow): SemanticSettings => ({ ...settingsRows.fromRow(row), custom: true });
    this.bySite = new CachedTable({ db, ...settingsRows, fromRow, logger });
  }

  load(): Promise<void> {
    return this.bySite.load();
  }

  forSite(siteId: string): SemanticSettings {
    return (
      this.bySite.get(siteId) ?? {
        ...DEFAULT_SETTINGS,
        fields: [],
        enabled: this.enabledByDefault,
        custom: false,
        updatedAt: null,
      }
    );
  }

  async save(siteId: string, patch: SemanticSettingsPatch): Promise<SemanticSettings> {
    const current = this.forSite(siteId);
    const next: SemanticSettings = {
      enabled: patch.enabled ?? current.enabled,
      embedder: patch.embedder ?? current.embedder,
      fields: patch.fields ? [...patch.fields] : current.fields,
      passageChars: patch.passageChars ?? current.passageChars,
      passageOverlap: patch.passageOverlap ?? current.passageOverlap,
      rrfK: patch.rrfK ?? current.rrfK,
      window: patch.window ?? current.window,
      custom: true,
      updatedAt: nowIso(),
    };
    const row = settingsRows.toRow(next);
    await this.db(TABLE)
      .insert({ site_id: siteId, ...row })
      .onConflict('site_id')
      .merge(row);
    this.bySite.set(siteId, next);
    await this.announce();
    return next;
  }

  /** Back to the defaults. */
  async reset(siteId: string): Promise<SemanticSettings> {
    await this.db(TABLE).where({ site_id: siteId }).delete();
    this.bySite.delete(siteId);
    await this.announce();
    return this.forSite(siteId);
  }

  /** Deletes the settings of sites `siteExists` does not know (read from the database); returns their ids. */
  async prune(siteExists: (siteId: string) => boolean): Promise<string[]> {
    const rows = (await this.db(TABLE).select('site_id')) as Array<{ site_id: string }>;
    const gone = rows.map((r) => r.site_id).filter((siteId) => !siteExists(siteId));
    for (let i = 0; i < gone.length; i += PRUNE_BATCH)
      await this.db(TABLE)
        .whereIn('site_id', gone.slice(i, i + PRUNE_BATCH))
        .delete();
    for (const siteId of gone) this.bySite.delete(siteId);
    if (gone.length > 0) await this.announce();
    return gone;
  }

  /** Ids of the sites whose settings name the embedder (from the database: other processes' writes count). */
  async sitesUsing(embedder: string): Promise<string[]> {
    const rows = (await this.db(TABLE).select('site_id').where({ embedder })) as Array<{ site_id: string }>;
    return rows.map((r) => r.site_id);
  }
}

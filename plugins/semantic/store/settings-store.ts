import { col, type Database, type Logger, rowCodec, SiteSettingsTable } from 'vela/plugin';

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

/**
 * Each site's semantic settings by site id (`semantic_site_settings`), held in memory: the search path reads them
 * on every request. Other processes' writes come in through `load` (the plugin's StoreRefresh calls it).
 * Values are checked by the routes; the store keeps what it is given.
 */
export class SemanticSettingsStore extends SiteSettingsTable<SemanticSettings> {
  constructor(
    db: Database,
    logger: Logger,
    enabledByDefault = false,
    /** Tells the other processes after a committed write. */
    announce: () => Promise<unknown> = async () => undefined,
  ) {
    super({
      db,
      codec: settingsRows,
      defaults: () => ({ ...DEFAULT_SETTINGS, enabled: enabledByDefault }),
      logger,
      announce,
    });
  }

  /** Ids of the sites whose settings name the embedder (from the database: other processes' writes count). */
  sitesUsing(embedder: string): Promise<string[]> {
    return this.sitesWhere('embedder', embedder);
  }
}

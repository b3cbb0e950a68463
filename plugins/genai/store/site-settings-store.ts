import type { SearchSites } from '@vela/plugin-search/api';
import { CachedTable, col, type Database, type Logger, nowIso, rowCodec, type TableRow } from 'vela/plugin';
import { BUILTIN_ID } from './instance-store.js';

/**
 * A site's GenAI settings (the original's turSNSiteGenAi): whether chat is on, with which instance, and its system
 * prompt.
 */
export interface SiteSettings {
  enabled: boolean;
  llmInstanceId: string;
  /**
   * Empty: the default prompt. `{question}` and `{information}` are filled in when present (the original's template).
   */
  systemPrompt: string;
  /** false: the site has no settings of its own and these are the defaults. */
  custom: boolean;
  updatedAt: string | null;
}

/** What a site's row holds; `custom` is true for every site that has one. */
const settingsRows = rowCodec<Omit<SiteSettings, 'custom'>>(
  'genai_site_settings',
  {
    enabled: col.bool('enabled'),
    llmInstanceId: 'llm_instance_id',
    systemPrompt: 'system_prompt',
    updatedAt: col.timestamp('updated_at'),
  },
  'site_id',
);
const TABLE = settingsRows.table;

/** Whether the search service still has a site, by id. */
export const siteExists =
  (sites: SearchSites) =>
  (siteId: string): boolean =>
    sites.find(siteId) !== null;

/** Ids per DELETE: well under the bound parameters every database takes. */
const PRUNE_BATCH = 500;

/**
 * Site GenAI settings, kept by the genai plugin by site id (`genai_site_settings`) and held in memory. A site
 * without a row chats with the built-in instance when `siteChat.enabledByDefault` is on: it only re-words what
 * the site's public search already shows, and costs nothing. A site uses a model server only once an
 * administrator names one for it.
 */
export class SiteSettingsStore {
  private readonly bySite: CachedTable<TableRow, SiteSettings>;

  constructor(
    private readonly db: Database,
    private readonly enabledByDefault: boolean,
    logger: Logger,
    /** Tells the other processes after a committed write. */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {
    const fromRow = (row: TableRow): SiteSettings => ({ ...settingsRows.fromRow(row), custom: true });
    this.bySite = new CachedTable({ db, ...settingsRows, fromRow, logger });
  }

  load(): Promise<void> {
    return this.bySite.load();
  }

  forSite(siteId: string): SiteSettings {
    return (
      this.bySite.get(siteId) ?? {
        enabled: this.enabledByDefault,
        llmInstanceId: BUILTIN_ID,
        systemPrompt: '',
        custom: false,
        updatedAt: null,
      }
    );
  }

  async save(
    siteId: string,
    patch: Partial<Pick<SiteSettings, 'enabled' | 'llmInstanceId' | 'systemPrompt'>>,
  ): Promise<SiteSettings> {
    const current = this.forSite(siteId);
    const next: SiteSettings = {
      enabled: patch.enabled ?? current.enabled,
      llmInstanceId: patch.llmInstanceId ?? current.llmInstanceId,
      systemPrompt: patch.systemPrompt ?? current.systemPrompt,
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
  async reset(siteId: string): Promise<SiteSettings> {
    await this.db(TABLE).where({ site_id: siteId }).delete();
    this.bySite.delete(siteId);
    await this.announce();
    return this.forSite(siteId);
  }

  /**
   * Deletes the settings of sites `siteExists` does not know (what a deleted site leaves behind); returns
   * their ids. Read from the database, so rows other processes wrote count too.
   */
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

  /** Ids of the sites whose settings name the instance (from the database: other processes' writes count). */
  async sitesUsing(instanceId: string): Promise<string[]> {
    const rows = (await this.db(TABLE).select('site_id').where({ llm_instance_id: instanceId })) as Array<{
      site_id: string;
    }>;
    return rows.map((r) => r.site_id);
  }
}

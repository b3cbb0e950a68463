import type { SearchSites } from '@vela/plugin-search/api';
import { CachedTable, type Database, type Logger, nowIso, toBool, toIso } from 'vela/plugin';
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

interface Row {
  site_id: string;
  enabled: unknown;
  llm_instance_id: string;
  system_prompt: string;
  updated_at: unknown;
}

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
  private readonly bySite: CachedTable<Row, SiteSettings>;

  constructor(
    private readonly db: Database,
    private readonly enabledByDefault: boolean,
    logger: Logger,
    /** Tells the other processes after a committed write. */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {
    this.bySite = new CachedTable({
      db,
      table: 'genai_site_settings',
      keyOf: (row) => row.site_id,
      fromRow: (row) => ({
        enabled: toBool(row.enabled),
        llmInstanceId: row.llm_instance_id,
        systemPrompt: row.system_prompt,
        custom: true,
        updatedAt: toIso(row.updated_at),
      }),
      logger,
    });
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
    const row = {
      enabled: next.enabled,
      llm_instance_id: next.llmInstanceId,
      system_prompt: next.systemPrompt,
      updated_at: next.updatedAt,
    };
    await this.db('genai_site_settings')
      .insert({ site_id: siteId, ...row })
      .onConflict('site_id')
      .merge(row);
    this.bySite.set(siteId, next);
    await this.announce();
    return next;
  }

  /** Back to the defaults. */
  async reset(siteId: string): Promise<SiteSettings> {
    await this.db('genai_site_settings').where({ site_id: siteId }).delete();
    this.bySite.delete(siteId);
    await this.announce();
    return this.forSite(siteId);
  }

  /**
   * Deletes the settings of sites `siteExists` does not know (what a deleted site leaves behind); returns
   * their ids. Read from the database, so rows other processes wrote count too.
   */
  async prune(siteExists: (siteId: string) => boolean): Promise<string[]> {
    const rows = (await this.db('genai_site_settings').select('site_id')) as Array<{ site_id: string }>;
    const gone = rows.map((r) => r.site_id).filter((siteId) => !siteExists(siteId));
    for (let i = 0; i < gone.length; i += PRUNE_BATCH)
      await this.db('genai_site_settings')
        .whereIn('site_id', gone.slice(i, i + PRUNE_BATCH))
        .delete();
    for (const siteId of gone) this.bySite.delete(siteId);
    if (gone.length > 0) await this.announce();
    return gone;
  }

  /** Ids of the sites whose settings name the instance (from the database: other processes' writes count). */
  async sitesUsing(instanceId: string): Promise<string[]> {
    const rows = (await this.db('genai_site_settings')
      .select('site_id')
      .where({ llm_instance_id: instanceId })) as Array<{ site_id: string }>;
    return rows.map((r) => r.site_id);
  }
}

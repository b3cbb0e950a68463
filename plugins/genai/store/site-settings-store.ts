import type { SearchSites } from '@vela/plugin-search/api';
import { col, type Database, type Logger, rowCodec, SiteSettingsTable } from 'vela/plugin';
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

/** Whether the search service still has a site, by id. */
export const siteExists =
  (sites: SearchSites) =>
  (siteId: string): boolean =>
    sites.find(siteId) !== null;

/**
 * Site GenAI settings, kept by the genai plugin by site id (`genai_site_settings`) and held in memory. A site
 * without a row chats with the built-in instance when `siteChat.enabledByDefault` is on: it only re-words what
 * the site's public search already shows, and costs nothing. A site uses a model server only once an
 * administrator names one for it.
 */
export class SiteSettingsStore extends SiteSettingsTable<SiteSettings> {
  constructor(
    db: Database,
    enabledByDefault: boolean,
    logger: Logger,
    /** Tells the other processes after a committed write. */
    announce: () => Promise<unknown> = async () => undefined,
  ) {
    super({
      db,
      codec: settingsRows,
      defaults: () => ({ enabled: enabledByDefault, llmInstanceId: BUILTIN_ID, systemPrompt: '' }),
      logger,
      announce,
    });
  }

  /** Ids of the sites whose settings name the instance (from the database: other processes' writes count). */
  sitesUsing(instanceId: string): Promise<string[]> {
    return this.sitesWhere('llm_instance_id', instanceId);
  }
}

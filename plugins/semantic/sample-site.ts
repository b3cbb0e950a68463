import type { SearchSites } from '@vela/plugin-search/api';
import type { SemanticSettingsStore } from './store/settings-store.js';

/**
 * Semantic search on for the first start's sample site (the connector seeds it, maybe after this plugin started):
 * once, when the site exists and has no semantic settings of its own, so the sample answers hybrid searches with
 * no model server. An administrator's settings for it are never overridden. The site's id once done (or nothing
 * to do), null while there is no such site.
 */
export async function seedSampleSite(
  settings: SemanticSettingsStore,
  sites: SearchSites,
  name: string,
): Promise<string | null> {
  const site = sites.find(name);
  if (!site) return null;
  if (!settings.forSite(site.id).custom) await settings.save(site.id, { enabled: true });
  return site.id;
}

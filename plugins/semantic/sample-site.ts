import type { SearchSites } from '@vela/plugin-search/api';
import type { SemanticSettingsStore } from './store/settings-store.js';

/**
 * Semantic search on for the first start's sample site (the connector seeds it, maybe after this plugin started):
 * once, when the site exists and has no semantic settings of its own, so the sample answers hybrid searches with
 * no model server. An administrator's settings for it are never overridden. True once done (or nothing to do).
 */
export async function seedSampleSite(
  settings: SemanticSettingsStore,
  sites: SearchSites,
  name: string,
): Promise<boolean> {
  const site = sites.find(name);
  if (!site) return false;
  if (!settings.forSite(site.id).custom) await settings.save(site.id, { enabled: true });
  return true;
}

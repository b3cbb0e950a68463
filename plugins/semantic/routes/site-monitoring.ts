import type { SearchSites } from '@vela/plugin-search/api';
import type { SemanticIndexer } from '../indexing/semantic-indexer.js';
import type { EmbeddingStates } from '../store/embedding-states.js';
import type { SemanticSettings } from '../store/settings-store.js';

/**
 * The `semantic` member of the site's monitoring report: per locale whether hybrid search runs, and the documents of
 * the model it embeds into by state.
 */
export async function monitoringOf(
  settings: SemanticSettings,
  states: EmbeddingStates,
  indexer: Pick<SemanticIndexer, 'statusOf'>,
  siteId: string,
  sites: SearchSites,
) {
  const counts = await states.counts(siteId);
  const locales: Record<string, unknown> = {};
  for (const locale of sites.find(siteId)?.locales ?? []) {
    const { status, active } = indexer.statusOf(siteId, locale);
    const mine = counts.filter((c) => c.locale === locale);
    // The model being embedded into: a newer one than the active model while the site is embedded anew.
    const current =
      mine.find((c) => c.modelKey !== active?.modelKey) ?? mine.find((c) => c.modelKey === active?.modelKey);
    locales[locale] = {
      ready: status.ready,
      pending: current?.pending ?? 0,
      done: current?.done ?? 0,
      failed: current?.failed ?? 0,
    };
  }
  return { enabled: settings.enabled, locales };
}

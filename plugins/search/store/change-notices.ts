import { type Changes, type Logger, StoreRefresh } from 'vela/plugin';
import type { ApiTokens } from '../auth/api-tokens.js';
import type { Importer } from '../indexing/importer.js';
import type { IndexManager } from '../indexing/index-manager.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import type { SiteStore } from './site-store.js';

/** The channels of the search plugin on the runtime's `changes` feed. */
export const SEARCH_CHANNELS = {
  /** A batch of document changes was committed (`{seq}`): index it now rather than at the next poll. */
  index: 'search.index',
  /** A site, its locales or fields changed (`{siteId}`). */
  sites: 'search.sites',
  tokens: 'search.tokens',
  spotlights: 'search.spotlights',
} as const;

interface Parts {
  sites: SiteStore;
  tokens: ApiTokens;
  spotlights: SpotlightStore;
  importer: Importer;
  indexes: IndexManager;
}

/**
 * Announce this process's writes and follow the other processes' (PostgreSQL LISTEN/NOTIFY through the
 * runtime's `changes` service): an import is indexed, a site, token or spotlight reloaded, within
 * milliseconds instead of at the next poll (every `pollMs`), which stays as the safety net. A process told
 * never to look for other processes' changes (`pollMs` 0) announces its own only. Returns the stop.
 */
export function followChanges(changes: Changes, parts: Parts, logger: Logger, pollMs: number): () => void {
  const { sites, tokens, spotlights, importer, indexes } = parts;
  const refresh = (what: string, channel: string, reload: () => Promise<void>, poll = pollMs) =>
    new StoreRefresh({ what, channels: [channel], changes, pollMs: poll, logger, reload });
  // The indexer polls the change log itself: a notice only spares it the wait.
  const index = refresh('the search index', SEARCH_CHANNELS.index, async () => indexes.kick(), 0);
  const siteRefresh = refresh('the sites, their fields and locales', SEARCH_CHANNELS.sites, () => sites.refresh());
  const tokenRefresh = refresh('the API tokens', SEARCH_CHANNELS.tokens, () => tokens.load());
  const spotlightRefresh = refresh('the spotlights', SEARCH_CHANNELS.spotlights, () => spotlights.load());
  const refreshes = [index, siteRefresh, tokenRefresh, spotlightRefresh];

  importer.onWritten = (seq) => void index.announce({ seq });
  sites.onLocalWrite = (change) => void siteRefresh.announce({ siteId: change.siteId });
  tokens.onWrite = () => void tokenRefresh.announce();
  spotlights.onWrite = () => void spotlightRefresh.announce();
  if (pollMs > 0) for (const r of refreshes) r.start();
  return () => {
    for (const r of refreshes) r.stop();
    importer.onWritten = null;
    sites.onLocalWrite = null;
    tokens.onWrite = null;
    spotlights.onWrite = null;
  };
}

import type { Changes, Logger } from 'vela/plugin';
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
 * milliseconds instead of at the next poll, which stays as the safety net. Returns the unsubscribe.
 */
export function followChanges(changes: Changes, parts: Parts, logger: Logger, follow = true): () => void {
  const { sites, tokens, spotlights, importer, indexes } = parts;
  const publish = (channel: string, payload?: unknown) => void changes.publish(channel, payload);
  importer.onWritten = (seq) => publish(SEARCH_CHANNELS.index, { seq });
  sites.onLocalWrite = (change) => publish(SEARCH_CHANNELS.sites, { siteId: change.siteId });
  tokens.onWrite = () => publish(SEARCH_CHANNELS.tokens);
  spotlights.onWrite = () => publish(SEARCH_CHANNELS.spotlights);

  const reloadSites = coalesced(() => sites.refresh(), logger, 'reloading the sites another process changed failed');
  const reloadTokens = coalesced(() => tokens.load(), logger, 'reloading the API tokens failed');
  const reloadSpotlights = coalesced(() => spotlights.load(), logger, 'reloading the spotlights failed');
  const on = (channel: string, run: () => void) =>
    changes.subscribe(channel, (_payload, info) => {
      if (!info.local) run();
    });
  // A process told never to look for other processes' changes (pollMs 0) announces its own only.
  const unsubscribes = follow
    ? [
        on(SEARCH_CHANNELS.index, () => indexes.kick()),
        on(SEARCH_CHANNELS.sites, reloadSites),
        on(SEARCH_CHANNELS.tokens, reloadTokens),
        on(SEARCH_CHANNELS.spotlights, reloadSpotlights),
      ]
    : [];
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    importer.onWritten = null;
    sites.onLocalWrite = null;
    tokens.onWrite = null;
    spotlights.onWrite = null;
  };
}

/** Run `fn` now, or once more after the run in progress: never two at once, no request lost. */
function coalesced(fn: () => Promise<void>, logger: Logger, failure: string): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await fn();
      } while (again);
    } catch (error) {
      logger.warn({ err: error }, failure);
    } finally {
      running = false;
    }
  };
  return () => void run();
}

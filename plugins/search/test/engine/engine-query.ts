import type { EngineQuery } from '../../engine/search-engine.js';

/** An engine query for everything, by relevance, the first 100 hits: `partial` says what differs. */
export function engineQuery(partial: Partial<EngineQuery> = {}): EngineQuery {
  return {
    text: null,
    filter: { and: [], or: [] },
    facets: [],
    sort: { by: 'relevance' },
    offset: 0,
    limit: 100,
    ...partial,
  };
}

import type { SemanticContext, VectorRetriever } from '../api.js';
import type { EngineQuery, EngineResult } from '../engine/search-engine.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import { correctText } from '../suggest/spell-check.js';
import type { SearchPlan } from './plan.js';
import { semanticCandidates } from './semantic.js';
import { matchSpotlights, type SpotlightMatch } from './spotlight-slots.js';

/** What the engine found for a plan, and which of the tries found it. */
export interface SearchRun {
  /** The query that found `found`: its offset places the page, its prefixLastTerm the highlighting. */
  readonly query: Readonly<EngineQuery>;
  readonly found: EngineResult;
  /** The text searched: the request's, or its spelling correction. */
  readonly searched: string;
  /** Whether `found` is the correction's (the links then carry it as q). */
  readonly corrected: boolean;
  /** The spelling correction offered (widget.spellCheck), null when every word is known or spell check is off. */
  readonly correction: string | null;
  readonly spotlights: SpotlightMatch;
  /** The mode asked for and the one that ran (queryContext.semantic). */
  readonly semantic: SemanticContext;
}

/**
 * Runs a plan: the request's text, then (the site's wildcardNoResults) its last word as a prefix when that
 * finds nothing. With the site's spellCheck, the query is checked against the site's vocabulary (the original checks
 * every search whatever the switch; the spec has the widget follow it): with spellCheckFixes too, a query that finds
 * nothing is searched corrected when the corrected text finds something (unless nfpr=1: the link back to the
 * original sets it); without it, the correction is only offered. A hybrid or vector
 * search (semantic.ts) runs its candidates in one query instead, with no retry: the prefix and the correction are
 * the keyword search's remedies.
 */
export async function runSearch(
  plan: SearchPlan,
  spotlights: SpotlightStore | undefined,
  retriever: VectorRetriever | null = null,
): Promise<SearchRun> {
  const { site } = plan.config;
  const { q, autoCorrect } = plan.request;
  const matched = matchSpotlights(plan, spotlights, q);
  const found = site.spellCheck && plan.text !== null ? correctText(plan.engine.terms, q) : null;
  const correction = found?.corrected ? found.text : null;
  const asAsked = engineQuery(plan, plan.text, matched.before);
  const semantic = await semanticCandidates(plan, retriever, asAsked);
  const unchanged = { searched: q, corrected: false, correction, spotlights: matched, semantic: semantic.context };
  if (semantic.ranked) {
    const query = { ...asAsked, ranked: semantic.ranked };
    return Object.freeze({ query, found: await plan.engine.query(query), ...unchanged });
  }
  const asked = await tries(plan, plan.text, matched.before);
  if (correction !== null && asked.found.total === 0 && site.spellCheckFixes && autoCorrect) {
    let fixed = await tries(plan, correction, matched.before);
    if (fixed.found.total > 0) {
      // Spotlights follow the text searched; when theirs take other slots, the page is read again around them.
      const again = matchSpotlights(plan, spotlights, correction);
      if (again.before !== matched.before) fixed = await tries(plan, correction, again.before);
      return Object.freeze({ ...fixed, ...unchanged, searched: correction, corrected: true, spotlights: again });
    }
  }
  return Object.freeze({ ...asked, ...unchanged });
}

/**
 * The engine query of a text, with the request's filters, facets, order, page and group. With spotlightWithResults,
 * spotlight documents take their absolute positions in the results, so the page's organic results are read around
 * them.
 */
function engineQuery(plan: SearchPlan, text: string | null, spotlightsBefore: number): EngineQuery {
  const { site } = plan.config;
  const query: EngineQuery = {
    text,
    filter: plan.facets.filter,
    facets: plan.facets.facetRequests,
    sort: plan.sort,
    offset: Math.max(0, plan.firstSlot - 1 - spotlightsBefore),
    limit: plan.rows + spotlightsBefore,
    prefixLastTerm: site.wildcardAlways,
    k1: site.bm25K1,
  };
  if (plan.group) query.group = plan.group;
  return query;
}

/**
 * One text searched: as typed, then with its last word as a prefix when that finds nothing and the site asks for it.
 */
async function tries(
  plan: SearchPlan,
  text: string | null,
  spotlightsBefore: number,
): Promise<{ query: EngineQuery; found: EngineResult }> {
  const { site } = plan.config;
  const query = engineQuery(plan, text, spotlightsBefore);
  const found = await plan.engine.query(query);
  if (found.total > 0 || text === null || site.wildcardAlways || !site.wildcardNoResults) return { query, found };
  const prefixed = { ...query, prefixLastTerm: true };
  return { query: prefixed, found: await plan.engine.query(prefixed) };
}

import type { EngineQuery, EngineResult } from '../engine/search-engine.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import { correctText } from '../suggest/spell-check.js';
import type { SearchPlan } from './plan.js';
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
}

/**
 * Runs a plan: the request's text, then (the site's wildcardNoResults) its last word as a prefix when that
 * finds nothing. Spell check against the site's vocabulary: with the site's spellCheckFixes (as in the
 * original), a query that finds nothing is searched corrected when the corrected text finds something (unless
 * nfpr=1: the link back to the original sets it); without it, the correction is only offered.
 */
export async function runSearch(plan: SearchPlan, spotlights: SpotlightStore | undefined): Promise<SearchRun> {
  const { site } = plan.config;
  const { q, autoCorrect } = plan.request;
  const matched = matchSpotlights(plan, spotlights, q);
  const asked = await tries(plan, plan.text, matched.before);
  const found = site.spellCheck && plan.text !== null ? correctText(plan.engine.terms, q) : null;
  const correction = found?.corrected ? found.text : null;
  if (correction !== null && asked.found.total === 0 && site.spellCheckFixes && autoCorrect) {
    let fixed = await tries(plan, correction, matched.before);
    if (fixed.found.total > 0) {
      // Spotlights follow the text searched; when theirs take other slots, the page is read again around them.
      const again = matchSpotlights(plan, spotlights, correction);
      if (again.before !== matched.before) fixed = await tries(plan, correction, again.before);
      return Object.freeze({ ...fixed, searched: correction, corrected: true, correction, spotlights: again });
    }
  }
  return Object.freeze({ ...asked, searched: q, corrected: false, correction, spotlights: matched });
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
  // With spotlightWithResults, spotlight documents take their absolute positions in the results, so the
  // page's organic results are read around them.
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
  const found = await plan.engine.query(query);
  if (found.total > 0 || text === null || site.wildcardAlways || !site.wildcardNoResults) return { query, found };
  const prefixed = { ...query, prefixLastTerm: true };
  return { query: prefixed, found: await plan.engine.query(prefixed) };
}

import type { FilterSpec, SearchEngine } from '../engine/search-engine.js';
import { planFacetQuery } from '../facets/facet-query-plan.js';
import { parseSearchParams } from '../query/search-params.js';
import type { SiteConfig } from '../store/site-types.js';

/**
 * The filters an autocomplete request carries, in every spelling the search takes (`fq[]`, `fq.and[]`, `fq.or[]` and
 * their aliases), checked as the search checks them (a 400 names a bad one); null when it has none.
 */
export function autocompleteFilters(
  config: SiteConfig,
  locale: string,
  path: string,
  query: string,
): FilterSpec | null {
  const params = parseSearchParams(path, query);
  if (params.fq.length + params.fqAnd.length + params.fqOr.length === 0) return null;
  return planFacetQuery(config, { ...params, locale }).filter;
}

/** How many documents that pass `filter` have every word of `text`, as a search for it finds them. */
export async function countFiltered(engine: SearchEngine, filter: FilterSpec, text: string): Promise<number> {
  const result = await engine.query({
    text,
    filter,
    facets: [],
    sort: { by: 'relevance' },
    offset: 0,
    limit: 0,
    prefixLastTerm: false,
  });
  return result.total;
}

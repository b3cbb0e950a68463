import { httpErrors } from 'vela/plugin';
import type { SearchEngine, SortSpec } from '../engine/search-engine.js';
import { searchErrors } from '../errors.js';
import { type FacetQueryPlan, planFacetQuery } from '../facets/facet-query-plan.js';
import type { IndexManager } from '../indexing/index-manager.js';
import type { SiteStore } from '../store/site-store.js';
import type { SiteConfig } from '../store/site-types.js';
import type { SearchParams } from './search-params.js';
import type { SearchWarning } from './search-response.js';
import type { SortOrder } from './sort-order.js';

/** Rebuilds of a site's engines a search waits for before it gives up (its fields keep changing). */
const SETTLE_ATTEMPTS = 3;

/**
 * One search request checked against its site, before anything is searched: the steps after it (run.ts,
 * page.ts) read it and never change it, so a retry plans again from the request rather than undoing edits.
 */
export interface SearchPlan {
  readonly request: Readonly<SearchParams>;
  readonly config: SiteConfig;
  /** The engine built for `config`'s fields. */
  readonly engine: SearchEngine;
  /** The locale the search runs in: the request's, else the site's only one, else its defaultLocale. */
  readonly locale: string;
  /** The text to match; null for `*` (every document). */
  readonly text: string | null;
  /** Results per page: the request's rows, else the site's rowsPerPage; 0 for counts and widgets only. */
  readonly rows: number;
  /** The absolute position (1-based, across pages) of the page's first result. */
  readonly firstSlot: number;
  readonly facets: FacetQueryPlan;
  readonly sort: SortSpec;
  /** The facet field results are grouped by, checked against the engine's schema. */
  readonly group: string | null;
  /** When the search began (performance.now()), for queryContext.responseTime. */
  readonly started: number;
  /** What of the request was ignored or changed (queryContext.warnings): the request's, then the plan's. */
  readonly warnings: readonly SearchWarning[];
}

export interface PlanSources {
  sites: SiteStore;
  indexes: IndexManager;
}

/**
 * The site and locale a request names, or the 404 the spec asks for. Without a locale (''), any locale does
 * here: searchLocale settles it.
 */
export function resolveSite(sites: SiteStore, siteName: string, locale: string): SiteConfig {
  const config = sites.find(siteName);
  if (!config) throw searchErrors.siteNotFound(siteName);
  if (locale === '') return config;
  if (!config.site.locales.includes(locale))
    throw searchErrors.localeNotFound(config.site.name, locale, config.site.locales);
  return config;
}

/**
 * The locale a search runs in: the one asked for, else the site's only one, else its defaultLocale; several and no
 * default is a 400 listing them.
 */
export function searchLocale(config: SiteConfig, asked: string): string {
  if (asked !== '') return asked;
  const { site } = config;
  if (site.locales.length === 1) return site.locales[0]!;
  if (site.defaultLocale && site.locales.includes(site.defaultLocale)) return site.defaultLocale;
  throw searchErrors.localeRequired(site.name, site.locales);
}

/**
 * Plans a search; a request the site cannot answer is refused here (404 site or locale, 400 parameter, 503 index
 * changing).
 */
export async function planSearch(
  sources: PlanSources,
  siteName: string,
  request: Readonly<SearchParams>,
): Promise<SearchPlan> {
  const started = performance.now();
  const { config, engine, locale } = await settledEngine(sources, siteName, request.locale);
  const rows = request.rows ?? config.site.rowsPerPage;
  const facets = planFacetQuery(config, request);
  const sorted = sortSpec(config, request.sortOrder, engine.schema);
  const sort = typeof sorted === 'string' ? RELEVANCE : sorted;
  const planned =
    typeof sorted === 'string' ? [...facets.warnings, sortWarning(request.sort, sorted)] : facets.warnings;
  const warnings = planned.length > 0 ? [...request.warnings, ...planned] : request.warnings;
  if (request.group && !engine.schema.facetFields.includes(request.group))
    throw httpErrors.invalidParameter(
      'group',
      `must name a facet field of site "${config.site.name}", got ${JSON.stringify(request.group)}`,
    );
  return Object.freeze({
    request,
    config,
    engine,
    locale,
    text: request.q.trim() === '*' ? null : request.q,
    rows,
    firstSlot: (request.page - 1) * rows + 1,
    facets,
    sort,
    group: request.group,
    started,
    warnings,
  });
}

/**
 * The site's configuration and the engine built for it. Another process's field change reaches the site
 * store first and the engine after its rebuild (queued behind the indexer's work): the search waits for that
 * rebuild rather than plan columns the engine does not have yet.
 */
async function settledEngine({ sites, indexes }: PlanSources, siteName: string, asked: string) {
  for (let attempt = 1; ; attempt++) {
    const config = resolveSite(sites, siteName, asked);
    const locale = searchLocale(config, asked);
    const engine = indexes.engineFor(config, locale);
    if (engine) return { config, engine, locale };
    if (attempt === SETTLE_ATTEMPTS) throw searchErrors.indexChanging(config.site.name);
    await indexes.settle(config.site.id);
  }
}

const RELEVANCE: SortSpec = { by: 'relevance' };

/** The original's Solr fails on a sort it cannot use and the original then answers anyway: relevance, said so. */
function sortWarning(sort: string, why: string): SearchWarning {
  return {
    code: 'sort_ignored',
    parameter: 'sort',
    message: `${JSON.stringify(sort)} ${why}: relevance order is used`,
  };
}

/** The engine's order for a sort, or why the site cannot sort so. */
function sortSpec(
  config: SiteConfig,
  order: SortOrder,
  schema: { numberFields: string[]; stringFields: string[] },
): SortSpec | string {
  if (order.by === 'relevance') return RELEVANCE;
  if (order.by === 'newest' || order.by === 'oldest') {
    const dateField = config.site.defaultDateField;
    if (!dateField || !schema.numberFields.includes(dateField))
      return `needs the defaultDateField of site "${config.site.name}" to be a DATE field`;
    return { by: 'number', field: dateField, direction: order.by === 'newest' ? 'desc' : 'asc' };
  }
  const { field, direction } = order;
  if (field === '') return 'names no field before the colon';
  if (schema.numberFields.includes(field)) return { by: 'number', field, direction };
  if (schema.stringFields.includes(field)) return { by: 'string', field, direction };
  return `names "${field}", which site "${config.site.name}" cannot sort by (it sorts by a number, date or single-valued string field)`;
}

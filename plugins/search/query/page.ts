import type { VectorRetriever } from '../api.js';
import type { EngineGroup } from '../engine/search-engine.js';
import {
  buildFacetGroups,
  buildFacetToRemove,
  cleanUpFacetsLink,
  selectedFilterQueries,
} from '../facets/facet-widget.js';
import { resolveOperators } from '../facets/operators.js';
import { LinkTemplate } from '../links/link-template.js';
import { paginationItems } from '../links/pagination.js';
import type { DocumentStore } from '../store/document-store.js';
import { defaultFieldsOf } from '../store/site-types.js';
import { highlighter, queryTerms } from './highlight.js';
import { localeLinks } from './locale-links.js';
import { pageDocuments, resultDocuments } from './page-documents.js';
import type { SearchPlan } from './plan.js';
import type { DocumentOptions } from './result-documents.js';
import type { SearchRun } from './run.js';
import type {
  QueryContext,
  ResultGroup,
  SearchResponse,
  SimilarDocument,
  SpellCheckWidget,
} from './search-response.js';
import { similarDocuments } from './similar.js';

/** The numbers of a page of `total` results (queryContext, each group). */
function paging(plan: SearchPlan, total: number) {
  const { rows, request } = plan;
  const pageCount = rows === 0 ? 0 : Math.ceil(total / rows);
  const pageEnd = rows === 0 ? 0 : Math.min(request.page * rows, total);
  return { pageCount, pageEnd, pageStart: rows === 0 ? 0 : Math.min((request.page - 1) * rows + 1, pageEnd) };
}

/**
 * The response of a run: the page's documents read, every link derived from the request's query string
 * encoded once (the corrected text's when the results are the correction's), members in the spec's order.
 * `retriever`: More Like This by vectors, where the site has them.
 */
export async function pageOf(
  plan: SearchPlan,
  run: SearchRun,
  docs: DocumentStore,
  retriever: VectorRetriever | null = null,
): Promise<SearchResponse> {
  const { config, request, rows, locale } = plan;
  const { site } = config;
  const { found } = run;
  const requested = LinkTemplate.of(request.linkBase);
  const links = run.corrected ? requested.replaced('q', run.searched) : requested;
  const highlight =
    site.hl && request.highlight !== false
      ? highlighter(queryTerms(run.searched), site.hlPre, site.hlPost, run.query.prefixLastTerm)
      : null;
  const options: DocumentOptions = {
    base: links,
    highlight,
    fieldList: request.fieldList,
    metadata: request.metadata ?? site.metadataFormat,
  };

  const { injecting, slots } = run.spotlights;
  const injected = injecting ? slots.filter((slot, k) => slot - k <= found.total) : [];
  const pages = paging(plan, found.total + injected.length);
  let groups: ResultGroup[] | undefined;
  let results: SearchResponse['results'];
  let similar: SimilarDocument[] = [];
  if (found.groups) {
    groups = await Promise.all(found.groups.map((group) => groupOf(plan, group, requested, docs, options)));
  } else {
    const { document, stored, pageIds } = await pageDocuments(plan, run, injected, docs, options);
    results = { document };
    if (site.mlt && pageIds.length > 0)
      similar = await similarDocuments({ docs, config, engine: plan.engine, locale, retriever }, stored, pageIds);
  }

  const siteOps = resolveOperators(site, undefined, request.fqOperator, request.fqItemOperator);
  const facets = buildFacetGroups(plan.facets, found.facets, links, locale);
  const widget: SearchResponse['widget'] = {
    cleanUpFacets: cleanUpFacetsLink(plan.facets, links),
    selectedFilterQueries: selectedFilterQueries(plan.facets, links),
    facet: facets.facet,
    secondaryFacet: facets.secondaryFacet,
    facetToRemove: buildFacetToRemove(plan.facets, links),
    similar,
    ...(site.spellCheck ? { spellCheck: spellCheckWidget(plan, run, requested) } : {}),
    locales: localeLinks(config, links),
    spotlights: run.spotlights.items,
  };
  const pagination = groups
    ? undefined
    : paginationItems(request.page, pages.pageCount, (page) => links.withParam('p', page));
  // Last: responseTime is the whole search's.
  const queryContext: QueryContext = {
    count: found.total,
    index: site.name,
    limit: rows,
    offset: 0,
    page: request.page,
    pageCount: pages.pageCount,
    pageEnd: pages.pageEnd,
    pageStart: pages.pageStart,
    responseTime: Math.round(performance.now() - plan.started),
    query: { queryString: run.searched, sort: request.sort, locale },
    defaultFields: defaultFieldsOf(site),
    facetType: siteOps.facetType,
    facetItemType: siteOps.itemType,
    semantic: run.semantic,
    warnings: [...plan.warnings],
  };
  // Members in the spec's order: pagination, queryContext, results, widget, groups.
  return groups ? { queryContext, widget, groups } : { pagination, queryContext, results, widget };
}

/**
 * One group of a grouped search: its documents, and pages of their own that are the plain search filtered by the
 * group's value.
 */
async function groupOf(
  plan: SearchPlan,
  group: EngineGroup,
  requested: LinkTemplate,
  docs: DocumentStore,
  options: DocumentOptions,
): Promise<ResultGroup> {
  const { rows, request, config } = plan;
  const { pageCount, pageEnd, pageStart } = paging(plan, group.total);
  const stored = await docs.forPage(
    config.site.id,
    plan.locale,
    group.hits.map((h) => h.id),
  );
  const groupLinks = requested.removed('group').filtered(`${plan.group}:${group.value}`);
  return {
    name: group.value,
    count: group.total,
    page: request.page,
    pageCount,
    pageEnd,
    pageStart,
    limit: rows,
    results: { document: resultDocuments(stored, group.hits, config, options) },
    pagination: paginationItems(request.page, pageCount, (page) => groupLinks.withParam('p', page)),
  };
}

/**
 * widget.spellCheck: the original text with a link that searches it as typed (nfpr=1 turns auto-correction
 * off), and the corrected text ("" when nothing was corrected) with a link that searches it.
 */
function spellCheckWidget(plan: SearchPlan, run: SearchRun, requested: LinkTemplate): SpellCheckWidget {
  const { q } = plan.request;
  return {
    correctedText: run.correction !== null,
    usingCorrectedText: run.searched !== q,
    original: { text: q, link: requested.replaced('q', q).withParam('nfpr', '1') },
    corrected: { text: run.correction ?? '', link: requested.withParam('q', run.correction ?? '') },
  };
}

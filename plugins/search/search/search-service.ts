import { searchErrors } from '../errors.js';
import type { EngineHit, EngineQuery, SortSpec } from '../engine/search-engine.js';
import { buildFacetGroups, buildFacetToRemove, cleanUpFacetsLink, selectedFilterQueries } from '../facets/facet-widget.js';
import { planFilters } from '../facets/filter-plan.js';
import { resolveOperators } from '../facets/operators.js';
import type { IndexManager } from '../indexing/index-manager.js';
import { buildPagination } from '../links/pagination.js';
import { addFq, removeParam, replaceParam, toLink, type LinkBase } from '../links/query-string.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { SiteConfig } from '../store/site-types.js';
import { highlighter, queryTerms } from './highlight.js';
import { toResultDocument } from './result-documents.js';
import type { SearchParams } from './search-params.js';
import type { ResultDocument, ResultGroup, SearchResponse } from './search-response.js';

/** The one search code path: REST GET and POST, GraphQL and the sample page all come through here. */
export class SearchService {
  constructor(private readonly sites: SiteStore, private readonly docs: DocumentStore, private readonly indexes: IndexManager) {}

  /** The site and locale a request names, or the 404 the spec asks for. */
  resolve(siteName: string, locale: string): SiteConfig {
    const config = this.sites.find(siteName);
    if (!config) throw searchErrors.siteNotFound(siteName);
    if (!config.site.locales.includes(locale)) throw searchErrors.localeNotFound(config.site.name, locale, config.site.locales);
    return config;
  }

  async search(siteName: string, params: SearchParams): Promise<SearchResponse> {
    const started = performance.now();
    const config = this.resolve(siteName, params.locale);
    const { site } = config;
    const rows = params.rows ?? site.rowsPerPage;
    const plan = planFilters(config, params);
    const engine = this.indexes.engine(site.id, params.locale);
    const query: EngineQuery = {
      text: params.q.trim() === '*' ? null : params.q,
      filter: plan.filter,
      facets: plan.facetRequests,
      sort: this.sortSpec(config, params.sort, engine.schema),
      offset: (params.page - 1) * rows,
      limit: rows,
    };
    if (params.group) {
      if (!engine.schema.facetFields.includes(params.group)) throw searchErrors.invalidParameter('group', `must name a facet field of site "${site.name}", got ${JSON.stringify(params.group)}`);
      query.group = params.group;
    }
    query.prefixLastTerm = site.wildcardAlways;
    let result = engine.query(query);
    if (result.total === 0 && query.text !== null && !site.wildcardAlways && site.wildcardNoResults) {
      query.prefixLastTerm = true;
      result = engine.query(query);
    }
    const base = params.linkBase;
    const highlight = site.hl ? highlighter(queryTerms(params.q), site.hlPre, site.hlPost, query.prefixLastTerm) : null;
    const toDocuments = async (hits: EngineHit[]): Promise<ResultDocument[]> => {
      const stored = await this.docs.get(site.id, params.locale, hits.map((h) => h.id));
      return hits.filter((h) => stored.has(h.id)).map((h) => toResultDocument(stored.get(h.id)!, config, { base, highlight, fieldList: params.fieldList }));
    };

    const pageCount = Math.ceil(result.total / rows);
    const pageEnd = Math.min(params.page * rows, result.total);
    const siteOps = resolveOperators(site, undefined, params.fqOperator, params.fqItemOperator);
    const facets = buildFacetGroups(plan, result.facets, base, params.locale);
    const queryContext: SearchResponse['queryContext'] = {
      count: result.total,
      index: site.name,
      limit: rows,
      offset: 0,
      page: params.page,
      pageCount,
      pageEnd,
      pageStart: Math.min((params.page - 1) * rows + 1, pageEnd),
      responseTime: 0,
      query: { queryString: params.q, sort: params.sort, locale: params.locale },
      defaultFields: {
        title: site.defaultTitleField, date: site.defaultDateField, description: site.defaultDescriptionField,
        text: site.defaultTextField, image: site.defaultImageField, url: site.defaultURLField,
      },
      facetType: siteOps.facetType,
      facetItemType: siteOps.itemType,
    };
    const widget: SearchResponse['widget'] = {
      cleanUpFacets: cleanUpFacetsLink(plan, base),
      selectedFilterQueries: selectedFilterQueries(plan, base),
      facet: facets.facet,
      secondaryFacet: facets.secondaryFacet,
      facetToRemove: buildFacetToRemove(plan, base),
      locales: this.localeLinks(config, base),
    };
    // Members in the spec's order: pagination, queryContext, results, widget, groups.
    const response: SearchResponse = result.groups
      ? { queryContext, widget, groups: await Promise.all(result.groups.map((g) => this.group(g.value, g.total, g.hits, params, rows, toDocuments))) }
      : { pagination: buildPagination(base, params.page, pageCount), queryContext, results: { document: await toDocuments(result.hits) }, widget };
    queryContext.responseTime = Math.round(performance.now() - started);
    return response;
  }

  /** Locale switchers: the same search in each of the site's locales. */
  localeLinks(config: SiteConfig, base: LinkBase): Array<{ locale: string; link: string }> {
    return [...config.site.locales].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
      .map((locale) => ({ locale, link: toLink(replaceParam(base, '_setlocale', locale)) }));
  }

  private async group(value: string, total: number, hits: EngineHit[], params: SearchParams, rows: number, toDocuments: (hits: EngineHit[]) => Promise<ResultDocument[]>): Promise<ResultGroup> {
    const pageCount = Math.ceil(total / rows);
    const pageEnd = Math.min(params.page * rows, total);
    // A group's pages are the plain search filtered by the group's value.
    const groupBase = addFq(removeParam(params.linkBase, 'group'), `${params.group}:${value}`);
    return {
      name: value,
      count: total,
      page: params.page,
      pageCount,
      pageEnd,
      pageStart: Math.min((params.page - 1) * rows + 1, pageEnd),
      limit: rows,
      results: { document: await toDocuments(hits) },
      pagination: buildPagination(groupBase, params.page, pageCount),
    };
  }

  private sortSpec(config: SiteConfig, sort: string, schema: { numberFields: string[]; stringFields: string[] }): SortSpec {
    const lower = sort.toLowerCase();
    if (lower === 'relevance') return { by: 'relevance' };
    if (lower === 'newest' || lower === 'oldest') {
      const dateField = config.site.defaultDateField;
      if (!dateField || !schema.numberFields.includes(dateField)) throw searchErrors.invalidParameter('sort', `${sort} needs the site's defaultDateField to be a DATE field`);
      return { by: 'number', field: dateField, direction: lower === 'newest' ? 'desc' : 'asc' };
    }
    const colon = sort.lastIndexOf(':');
    const field = sort.slice(0, colon);
    const direction = sort.slice(colon + 1).toLowerCase() as 'asc' | 'desc';
    if (schema.numberFields.includes(field)) return { by: 'number', field, direction };
    if (schema.stringFields.includes(field)) return { by: 'string', field, direction };
    throw searchErrors.invalidParameter('sort', `cannot sort by "${field}": sort by a number, date or single-valued string field of site "${config.site.name}"`);
  }
}

import { VelaError } from 'vela/plugin';
import type { EngineHit, EngineQuery, SearchEngine, SortSpec } from '../engine/search-engine.js';
import { searchErrors } from '../errors.js';
import { planFacetQuery } from '../facets/facet-query-plan.js';
import { buildFacetGroups, buildFacetToRemove, cleanUpFacetsLink, selectedFilterQueries } from '../facets/facet-widget.js';
import { resolveOperators } from '../facets/operators.js';
import type { IndexManager } from '../indexing/index-manager.js';
import { buildPagination } from '../links/pagination.js';
import { addFq, type LinkBase, removeParam, replaceParam, toLink } from '../links/query-string.js';
import type { SpotlightStore, SpotlightWidgetItem } from '../spotlights/spotlight-store.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { SiteConfig } from '../store/site-types.js';
import { MLT_ROWS, MLT_SOURCES, mltFields, mltText, weightedTerms } from '../suggest/more-like-this.js';
import { correctText } from '../suggest/spell-check.js';
import { stopWordsOf } from '../suggest/stop-words.js';
import { highlighter, queryTerms } from './highlight.js';
import type { Attributes } from './indexable.js';
import { toResultDocument } from './result-documents.js';
import type { SearchParams } from './search-params.js';
import type { ResultDocument, ResultGroup, SearchResponse, SimilarDocument, SpellCheckWidget } from './search-response.js';
import type { SortOrder } from './sort-order.js';

/** Rebuilds of a site's engines a search waits for before it gives up (its fields keep changing). */
const SETTLE_ATTEMPTS = 3;

/** The one search code path: REST GET and POST, GraphQL and the sample page all come through here. */
export class SearchService {
  constructor(
    private readonly sites: SiteStore,
    private readonly docs: DocumentStore,
    private readonly indexes: IndexManager,
    private readonly spotlights?: SpotlightStore,
    /** Whether other processes may change the sites (a shared database): then a refusal is checked against it first. */
    private readonly othersWrite: () => boolean = () => false,
  ) {}

  /**
   * The site and locale a request names, or the 404 the spec asks for. Without a locale (''), the site's
   * only locale, else its defaultLocale; a site with several and no default is a 400 listing them.
   */
  resolve(siteName: string, locale: string): SiteConfig {
    const config = this.sites.find(siteName);
    if (!config) throw searchErrors.siteNotFound(siteName);
    if (locale === '') return config;
    if (!config.site.locales.includes(locale)) throw searchErrors.localeNotFound(config.site.name, locale, config.site.locales);
    return config;
  }

  /** The locale a search runs in: the one asked for, else the site's only one, else its defaultLocale. */
  localeOf(config: SiteConfig, asked: string): string {
    if (asked !== '') return asked;
    const { site } = config;
    if (site.locales.length === 1) return site.locales[0]!;
    if (site.defaultLocale && site.locales.includes(site.defaultLocale)) return site.defaultLocale;
    throw searchErrors.localeRequired(site.name, site.locales);
  }

  /**
   * Runs the search. `params.locale` is settled on the way: a request without one gets the locale the
   * search ran in (the site's only or default locale).
   */
  async search(siteName: string, params: SearchParams): Promise<SearchResponse> {
    const asked = params.locale;
    const seen = this.sites.find(siteName);
    try {
      return await this.searchOnce(siteName, params);
    } catch (error) {
      // A site, locale or field this process does not know yet may be one another process has just written and
      // acknowledged (its notice is on the way): read the sites again before refusing, and search once more if
      // that changed what this search depends on. The store coalesces these reads: one at a time, whatever comes.
      if (!(error instanceof VelaError) || error.status < 400 || error.status >= 500 || !this.othersWrite()) throw error;
      // Unable to read them (the database is away), the refusal stands: it is what this process knows.
      const refreshed = await this.sites.refreshSoon().then(
        () => true,
        () => false,
      );
      if (!refreshed || this.sites.find(siteName) === seen) throw error;
      params.locale = asked;
      return this.searchOnce(siteName, params);
    }
  }

  /**
   * The site's configuration and the engine built for it. Another process's field change reaches the site
   * store first and the engine after its rebuild (queued behind the indexer's work): the search waits for that
   * rebuild rather than plan columns the engine does not have yet.
   */
  private async configAndEngine(siteName: string, params: SearchParams): Promise<{ config: SiteConfig; engine: SearchEngine }> {
    const asked = params.locale;
    for (let attempt = 1; ; attempt++) {
      const config = this.resolve(siteName, asked);
      const locale = this.localeOf(config, asked);
      const engine = this.indexes.engineFor(config, locale);
      if (engine) {
        params.locale = locale;
        return { config, engine };
      }
      if (attempt === SETTLE_ATTEMPTS) throw searchErrors.indexChanging(config.site.name);
      await this.indexes.settle(config.site.id);
    }
  }

  private async searchOnce(siteName: string, params: SearchParams): Promise<SearchResponse> {
    const started = performance.now();
    const { config, engine } = await this.configAndEngine(siteName, params);
    const { site } = config;
    const rows = params.rows ?? site.rowsPerPage;
    const plan = planFacetQuery(config, params);
    const text = params.q.trim() === '*' ? null : params.q;
    // Spotlights whose terms the query contains; with spotlightWithResults their documents take their
    // absolute positions in the results, so the page's organic results are read around them.
    const firstSlot = (params.page - 1) * rows + 1;
    const spotlightsFor = (searchedText: string) => {
      const items = text === null || !this.spotlights ? [] : this.spotlights.match(site.id, params.locale, searchedText);
      const injecting = site.spotlightWithResults && items.length > 0 && !params.group && rows > 0;
      const slots = injecting ? spotlightSlots(items) : [];
      return { items, injecting, slots, before: slots.filter((slot) => slot < firstSlot).length };
    };
    let spotlights = spotlightsFor(params.q);
    const query: EngineQuery = {
      text,
      filter: plan.filter,
      facets: plan.facetRequests,
      sort: this.sortSpec(config, params.sortOrder, engine.schema),
      offset: Math.max(0, firstSlot - 1 - spotlights.before),
      limit: rows + spotlights.before,
    };
    if (params.group) {
      if (!engine.schema.facetFields.includes(params.group))
        throw searchErrors.invalidParameter('group', `must name a facet field of site "${site.name}", got ${JSON.stringify(params.group)}`);
      query.group = params.group;
    }
    const run = async () => {
      query.prefixLastTerm = site.wildcardAlways;
      let found = await engine.query(query);
      if (found.total === 0 && query.text !== null && !site.wildcardAlways && site.wildcardNoResults) {
        query.prefixLastTerm = true;
        found = await engine.query(query);
      }
      return found;
    };
    let result = await run();

    // Spell check against the site's vocabulary. With the site's spellCheckFixes too (as in the original), a
    // query that finds nothing is searched corrected when the corrected text finds something (unless nfpr=1:
    // the link back to the original sets it); without it, the correction is only offered.
    const correction = site.spellCheck && text !== null ? correctText(engine.terms, params.q) : null;
    let searched = params.q;
    let base = params.linkBase;
    if (correction?.corrected && result.total === 0 && site.spellCheckFixes && params.autoCorrect) {
      const original = { text: query.text, prefixLastTerm: query.prefixLastTerm };
      query.text = correction.text;
      let corrected = await run();
      if (corrected.total > 0) {
        // Spotlights follow the text searched; when theirs take other slots, the page is read again around them.
        const again = spotlightsFor(correction.text);
        if (again.before !== spotlights.before) {
          query.offset = Math.max(0, firstSlot - 1 - again.before);
          query.limit = rows + again.before;
          corrected = await run();
        }
        spotlights = again;
        result = corrected;
        searched = correction.text;
        base = replaceParam(base, 'q', correction.text);
      } else {
        query.text = original.text;
        query.prefixLastTerm = original.prefixLastTerm;
      }
    }
    const spellCheck = spellCheckWidget(params, correction?.corrected ? correction.text : null, searched !== params.q);

    const highlight = site.hl ? highlighter(queryTerms(searched), site.hlPre, site.hlPost, query.prefixLastTerm) : null;
    const render = (stored: Map<string, Attributes>, hits: EngineHit[]): ResultDocument[] =>
      hits.filter((h) => stored.has(h.id)).map((h) => toResultDocument(stored.get(h.id)!, config, { base, highlight, fieldList: params.fieldList }));
    const toDocuments = async (hits: EngineHit[]): Promise<ResultDocument[]> =>
      render(
        await this.docs.forPage(
          site.id,
          params.locale,
          hits.map((h) => h.id),
        ),
        hits,
      );

    // The page: organic hits, with the spotlight documents in their slots when injecting.
    const { items: spotlightItems, injecting, slots } = spotlights;
    const injected = injecting ? slots.filter((slot, k) => slot - k <= result.total) : [];
    const listed = result.total + injected.length;
    const pageCount = rows === 0 ? 0 : Math.ceil(listed / rows);
    const pageEnd = rows === 0 ? 0 : Math.min(params.page * rows, listed);
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
      pageStart: rows === 0 ? 0 : Math.min((params.page - 1) * rows + 1, pageEnd),
      responseTime: 0,
      query: { queryString: searched, sort: params.sort, locale: params.locale },
      defaultFields: {
        title: site.defaultTitleField,
        date: site.defaultDateField,
        description: site.defaultDescriptionField,
        text: site.defaultTextField,
        image: site.defaultImageField,
        url: site.defaultURLField,
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
      similar: [],
      spellCheck,
      locales: this.localeLinks(config, base),
      spotlights: spotlightItems,
    };
    // Members in the spec's order: pagination, queryContext, results, widget, groups.
    let response: SearchResponse;
    if (result.groups) {
      response = { queryContext, widget, groups: await Promise.all(result.groups.map((g) => this.group(g.value, g.total, g.hits, params, rows, toDocuments))) };
    } else {
      const before = injected.filter((slot) => slot < firstSlot).length;
      const within = injected.filter((slot) => slot >= firstSlot && slot < firstSlot + rows);
      const from = firstSlot - 1 - before - query.offset;
      const organic = result.hits.slice(Math.max(0, from), Math.max(0, from + rows - within.length));
      const spotlightDocs = within.map((slot) => spotlightItems[slots.indexOf(slot)]!);
      const references = spotlightDocs.flatMap((d) => (d.referenceId ? [d.referenceId] : []));
      const stored = await this.docs.forPage(site.id, params.locale, [...new Set([...organic.map((h) => h.id), ...references])]);
      const organicDocs = render(stored, organic);
      const organicIds = organic.filter((h) => stored.has(h.id)).map((h) => h.id);
      const document: ResultDocument[] = [];
      const pageIds: string[] = [];
      for (let slot = firstSlot, next = 0; slot < firstSlot + rows; slot++) {
        const at = within.indexOf(slot);
        if (at >= 0) {
          document.push(this.spotlightDocument(spotlightDocs[at]!, stored, config, base, highlight, params.fieldList));
          if (spotlightDocs[at]!.referenceId) pageIds.push(spotlightDocs[at]!.referenceId!);
        } else if (next < organicDocs.length) {
          pageIds.push(organicIds[next]!);
          document.push(organicDocs[next++]!);
        } else break;
      }
      response = { pagination: buildPagination(base, params.page, pageCount), queryContext, results: { document }, widget };
      if (site.mlt && pageIds.length > 0) widget.similar = await this.similar(config, engine, params.locale, stored, pageIds);
    }
    queryContext.responseTime = Math.round(performance.now() - started);
    return response;
  }

  /**
   * More Like This: the documents with the most of the top tf-idf terms of the page's first results (in the
   * fields with `mlt`, else the site's title, description and text fields); never the page's own results.
   */
  private async similar(
    config: SiteConfig,
    engine: SearchEngine,
    locale: string,
    stored: Map<string, Attributes>,
    pageIds: string[],
  ): Promise<SimilarDocument[]> {
    const { site } = config;
    const fields = mltFields(config);
    const texts = pageIds.slice(0, MLT_SOURCES).flatMap((id) => (stored.has(id) ? [mltText(stored.get(id)!, fields)] : []));
    const terms = weightedTerms(texts, engine.terms, stopWordsOf(locale));
    const hits = await engine.similar(terms, pageIds, MLT_ROWS);
    if (hits.length === 0) return [];
    const found = await this.docs.forPage(
      site.id,
      locale,
      hits.map((h) => h.id),
    );
    const text = (attributes: Attributes, field: string | null) => {
      const value = field === null ? undefined : Object.hasOwn(attributes, field) ? attributes[field] : undefined;
      const first = Array.isArray(value) ? value[0] : value;
      return first === undefined || first === null ? null : String(first);
    };
    return hits.flatMap((h) => {
      const attributes = found.get(h.id);
      if (!attributes) return [];
      return [{ id: h.id, title: text(attributes, site.defaultTitleField), type: text(attributes, 'type'), url: text(attributes, site.defaultURLField) }];
    });
  }

  /** A spotlight document in its slot: the indexed document it names, else one made of its own title, content and link. */
  private spotlightDocument(
    item: SpotlightWidgetItem,
    stored: Map<string, Attributes>,
    config: SiteConfig,
    base: LinkBase,
    highlight: ((text: string) => string) | null,
    fieldList: string[] | null,
  ): ResultDocument {
    const referenced = item.referenceId ? stored.get(item.referenceId) : undefined;
    if (referenced) return { ...toResultDocument(referenced, config, { base, highlight, fieldList }), elevate: true };
    const { site } = config;
    const fields: Record<string, unknown> = { id: item.id };
    if (site.defaultTitleField) fields[site.defaultTitleField] = item.title;
    fields[site.defaultDescriptionField ?? 'abstract'] = item.content;
    fields.type = item.type;
    if (site.defaultURLField && item.link) fields[site.defaultURLField] = item.link;
    const shown = fieldList ? Object.fromEntries(Object.entries(fields).filter(([name]) => fieldList.includes(name))) : fields;
    return { source: item.link, elevate: true, fields: shown, metadata: [] };
  }

  /** Locale switchers: the same search in each of the site's locales. */
  localeLinks(config: SiteConfig, base: LinkBase): Array<{ locale: string; link: string }> {
    return [...config.site.locales]
      .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
      .map((locale) => ({ locale, link: toLink(replaceParam(base, '_setlocale', locale)) }));
  }

  private async group(
    value: string,
    total: number,
    hits: EngineHit[],
    params: SearchParams,
    rows: number,
    toDocuments: (hits: EngineHit[]) => Promise<ResultDocument[]>,
  ): Promise<ResultGroup> {
    const pageCount = rows === 0 ? 0 : Math.ceil(total / rows);
    const pageEnd = rows === 0 ? 0 : Math.min(params.page * rows, total);
    // A group's pages are the plain search filtered by the group's value.
    const groupBase = addFq(removeParam(params.linkBase, 'group'), `${params.group}:${value}`);
    return {
      name: value,
      count: total,
      page: params.page,
      pageCount,
      pageEnd,
      pageStart: rows === 0 ? 0 : Math.min((params.page - 1) * rows + 1, pageEnd),
      limit: rows,
      results: { document: await toDocuments(hits) },
      pagination: buildPagination(groupBase, params.page, pageCount),
    };
  }

  private sortSpec(config: SiteConfig, order: SortOrder, schema: { numberFields: string[]; stringFields: string[] }): SortSpec {
    if (order.by === 'relevance') return { by: 'relevance' };
    if (order.by === 'newest' || order.by === 'oldest') {
      const dateField = config.site.defaultDateField;
      if (!dateField || !schema.numberFields.includes(dateField))
        throw searchErrors.invalidParameter('sort', `${order.by} needs the site's defaultDateField to be a DATE field`);
      return { by: 'number', field: dateField, direction: order.by === 'newest' ? 'desc' : 'asc' };
    }
    const { field, direction } = order;
    if (schema.numberFields.includes(field)) return { by: 'number', field, direction };
    if (schema.stringFields.includes(field)) return { by: 'string', field, direction };
    throw searchErrors.invalidParameter(
      'sort',
      `names "${field}", which cannot be sorted by: sort by a number, date or single-valued string field of site "${config.site.name}"`,
    );
  }
}

/**
 * The absolute slots (1-based, across pages) of matched spotlight documents, in position order: each at its
 * position, or right after the one before when two ask for the same place.
 */
function spotlightSlots(items: readonly SpotlightWidgetItem[]): number[] {
  const slots: number[] = [];
  for (const item of items) slots.push(Math.max(item.position, (slots[slots.length - 1] ?? 0) + 1));
  return slots;
}

/**
 * widget.spellCheck: the original text with a link that searches it as typed (nfpr=1 turns auto-correction
 * off), and the corrected text ("" when nothing was corrected) with a link that searches it.
 */
function spellCheckWidget(params: SearchParams, corrected: string | null, using: boolean): SpellCheckWidget {
  const base = params.linkBase;
  return {
    correctedText: corrected !== null,
    usingCorrectedText: using,
    original: { text: params.q, link: toLink(replaceParam(replaceParam(base, 'q', params.q), 'nfpr', '1')) },
    corrected: { text: corrected ?? '', link: toLink(replaceParam(base, 'q', corrected ?? '')) },
  };
}

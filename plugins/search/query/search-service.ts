import { VelaError } from 'vela/plugin';
import type { IndexManager } from '../indexing/index-manager.js';
import { LinkTemplate } from '../links/link-template.js';
import type { LinkBase } from '../links/query-string.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { SiteConfig } from '../store/site-types.js';
import { localeLinks } from './locale-links.js';
import { pageOf } from './page.js';
import { planSearch, resolveSite, searchLocale } from './plan.js';
import { runSearch } from './run.js';
import type { SearchParams } from './search-params.js';
import type { SearchResponse } from './search-response.js';
import type { VectorRetrieverSlot } from './vector-retrievers.js';

/** Warnings a newer read of the site may lift: a field another process has just added. */
const FIELD_WARNINGS = new Set(['unknown_field', 'sort_ignored']);

/**
 * The one search code path: REST GET and POST, GraphQL and the sample page all come through here. A search
 * is three steps over the request, which none of them changes: plan (plan.ts: site, locale, engine, filters,
 * sort, paging), run (run.ts: the engine, with its fallbacks and spotlights), page (page.ts: documents, widgets
 * and links).
 */
export class SearchService {
  /** Answers that read the site's vectors (see keepable). */
  private readonly readVectors = new WeakSet<SearchResponse>();

  constructor(
    private readonly sites: SiteStore,
    private readonly docs: DocumentStore,
    private readonly indexes: IndexManager,
    private readonly spotlights?: SpotlightStore,
    /** Whether other processes may change the sites (a shared database): then a refusal is checked against it first. */
    private readonly othersWrite: () => boolean = () => false,
    /** The vector retriever, when a plugin registered one: hybrid and vector searches, More Like This. */
    private readonly vectors?: VectorRetrieverSlot,
  ) {}

  /**
   * The site and locale a request names, or the 404 the spec asks for. Without a locale (''), the site's
   * only locale, else its defaultLocale; a site with several and no default is a 400 listing them.
   */
  resolve(siteName: string, locale: string): SiteConfig {
    return resolveSite(this.sites, siteName, locale);
  }

  /** The locale a search runs in: the one asked for, else the site's only one, else its defaultLocale. */
  localeOf(config: SiteConfig, asked: string): string {
    return searchLocale(config, asked);
  }

  /** Runs the search; the answer's queryContext.query.locale is the locale it ran in (the request may leave it out). */
  async search(siteName: string, request: SearchParams): Promise<SearchResponse> {
    const seen = this.sites.find(siteName);
    let response: SearchResponse;
    try {
      response = await this.searchOnce(siteName, request);
    } catch (error) {
      // A site, locale or field this process does not know yet may be one another process has just written and
      // acknowledged (its notice is on the way): read the sites again before refusing, and search once more if
      // that changed what this search depends on.
      if (!(error instanceof VelaError) || error.status < 400 || error.status >= 500) throw error;
      if (!(await this.sitesChangedSince(siteName, seen))) throw error;
      return this.searchOnce(siteName, request);
    }
    // The same for a field answered leniently as unknown (a filter matching nothing, a sort left out).
    if (!response.queryContext.warnings.some((w) => FIELD_WARNINGS.has(w.code))) return response;
    return (await this.sitesChangedSince(siteName, seen)) ? this.searchOnce(siteName, request) : response;
  }

  /**
   * Whether the site another process may have just changed reads otherwise from the database than `seen`. The
   * store coalesces these reads: one at a time, whatever comes. Unable to read them (the database is away), what
   * this process knows stands.
   */
  private async sitesChangedSince(siteName: string, seen: SiteConfig | null | undefined): Promise<boolean> {
    if (!this.othersWrite()) return false;
    const refreshed = await this.sites.refreshSoon().then(
      () => true,
      () => false,
    );
    return refreshed && this.sites.find(siteName) !== seen;
  }

  /**
   * Whether an answer may be kept by the answer cache. One that read the site's vectors (or fell back for want of
   * them) is not: vectors change after the index does (they are embedded off the request path), and nothing tells
   * the cache when.
   */
  keepable(response: SearchResponse): boolean {
    return !this.readVectors.has(response);
  }

  private async searchOnce(siteName: string, request: SearchParams): Promise<SearchResponse> {
    const retriever = this.vectors?.retriever ?? null;
    const plan = await planSearch({ sites: this.sites, indexes: this.indexes }, siteName, request);
    const response = await pageOf(plan, await runSearch(plan, this.spotlights, retriever), this.docs, retriever);
    if (retriever && (request.semantic !== 'keyword' || plan.config.site.mlt)) this.readVectors.add(response);
    return response;
  }

  /** Locale switchers: the same search in each of the site's locales. */
  localeLinks(config: SiteConfig, base: LinkBase): Array<{ locale: string; link: string }> {
    return localeLinks(config, LinkTemplate.of(base));
  }
}

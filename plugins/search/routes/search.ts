import {
  type ApiRouter,
  answers,
  pathParams,
  principalOf,
  type Request,
  type RequestHandler,
  type Response,
  type RouteGroup,
  type SyncHook,
  sendJsonBytes,
  siteRefSchema,
} from 'vela/plugin';
import type { SearchedEvent } from '../api.js';
import { linkBaseFromUrl } from '../links/query-string.js';
import { answerBytes } from '../query/answer-cache.js';
import { MAX_PAGE, type PostBody, parseSearchParams, type SearchParams } from '../query/search-params.js';
import { searchResponseSchema } from '../schemas/search-response.js';
import type { SearchDomain } from './route-context.js';

/**
 * What a search route reads: the answer cache, the search, the sites (to key a kept answer), and the hook it tells each
 * answer.
 */
export type SearchRouteDomain = Pick<SearchDomain, 'answers' | 'search' | 'sites'> & {
  searched: SyncHook<[SearchedEvent]>;
};

const tags = ['search'];
const siteParam = pathParams({ siteName: siteRefSchema });
/** The query parameters of a search (GET), for the API description: the route reads the raw query string itself. */
export const searchQueryDoc = {
  type: 'object',
  properties: {
    q: { type: 'string', description: 'the query; * for every document (required)' },
    _setlocale: {
      type: 'string',
      description: "locale, e.g. en_US (default: the site's only locale, or its defaultLocale)",
    },
    p: { type: 'string', description: `page, from 1 to ${MAX_PAGE}` },
    rows: {
      type: 'string',
      description:
        'results per page (default, and below 0: the site rowsPerPage; 0: counts and widgets only; at most 1000)',
    },
    sort: {
      type: 'string',
      description:
        'relevance | newest | oldest | field:asc | field:desc (field:<anything else> is descending; also field desc, field,desc); any other value: relevance',
    },
    nfpr: {
      type: 'string',
      description: '1: never search the spell-corrected text instead (widget.spellCheck.original.link sets it)',
    },
    'fq[]': { type: 'array', items: { type: 'string' }, description: 'filter field:value (repeatable)' },
    'fq.and[]': { type: 'array', items: { type: 'string' } },
    'fq.or[]': { type: 'array', items: { type: 'string' } },
    'fq.op': {
      type: 'string',
      description: 'AND | OR between facets (NONE, DEFAULT or empty: the field, else the site decides)',
    },
    'fqi.op': {
      type: 'string',
      description: 'AND | OR between values of a facet (NONE, DEFAULT or empty: the field, else the site decides)',
    },
    'tr[]': { type: 'array', items: { type: 'string' }, description: 'targeting rule field:value' },
    group: { type: 'string', description: 'group results by a facet field' },
    fl: { type: 'string', description: 'comma-separated fields to return' },
    semantic: {
      type: 'string',
      description:
        'keyword (default) | hybrid | vector: by the text index, by it fused with the documents nearest in meaning, or by those alone; a mode that cannot run falls back to keyword (queryContext.semantic says why)',
    },
    metadata: {
      type: 'string',
      description:
        "grouped | flat: results' metadata grouped by field ({name, values: [{label, link}]}) or one {href, text} per value, as the original sends it (default: the site's metadataFormat)",
    },
  },
};
/** Strings of a search are short; the bounds keep a body from carrying megabytes into the parser. */
const text = (maxLength: number) => ({ type: ['string', 'null'], maxLength });
const texts = (maxLength: number) => ({ type: ['array', 'null'], maxItems: 100, items: { type: 'string', maxLength } });
/**
 * The POST body: members the original ignores (and ones it never knew) are ignored too, not refused, as
 * clients of the original send them; the known ones are checked.
 */
const postBody = {
  type: 'object',
  properties: {
    userId: text(100),
    query: text(2000),
    locale: text(16),
    page: {
      type: ['integer', 'null'],
      minimum: -MAX_PAGE - 1,
      maximum: MAX_PAGE,
      description: 'below 1: page 1, as the original answers it (queryContext.warnings says so)',
    },
    rows: { type: ['integer', 'null'], description: '0: counts and widgets only; below 0: the site rowsPerPage' },
    sort: text(200),
    group: text(100),
    fq: texts(2000),
    fqAnd: texts(2000),
    fqOr: texts(2000),
    // AND and OR are honoured; any other value is ignored, as the original ignores both members.
    fqOperator: text(100),
    fqItemOperator: text(100),
    fieldList: texts(100),
    disableAutoComplete: { type: ['boolean', 'null'] },
    populateMetrics: { type: ['boolean', 'null'] },
    targetingRules: texts(2000),
    semantic: { ...text(16), description: 'keyword (default) | hybrid | vector, as the semantic parameter' },
    metadata: { ...text(16), description: 'grouped | flat, as the metadata parameter' },
    targetingRulesWithCondition: { type: ['object', 'null'] },
    targetingRulesWithConditionAND: { type: ['object', 'null'] },
    targetingRulesWithConditionOR: { type: ['object', 'null'] },
  },
};

export const rawQuery = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
};

/**
 * A search's answer, from the answer cache when the same request (method, URL, body) was answered since its
 * site last changed, else searched, sent and kept. A hit is told to the search.searched taps like any search.
 */
export async function answerSearch(
  domain: SearchRouteDomain,
  req: Request,
  res: Response,
  key: string,
  parse: () => SearchParams,
): Promise<void> {
  const started = performance.now();
  const siteName = String(req.params.siteName);
  const { answers } = domain;
  const cached = answers.enabled ? answers.get(key) : undefined;
  if (cached) {
    sendJsonBytes(res, 200, answerBytes(cached, performance.now() - started), HIT);
    tellSearched(domain, res, cached.siteId, cached.params, cached.count);
    return;
  }
  const ticket = answers.ticket();
  const params = parse();
  const response = await domain.search.search(siteName, params);
  const body = Buffer.from(JSON.stringify(response));
  sendJsonBytes(res, 200, body, answers.enabled ? MISS : NO_CACHE);
  // A request may leave the locale out: the taps are told the one the search ran in.
  const { locale } = response.queryContext.query;
  const searched = params.locale === locale ? params : { ...params, locale };
  const site = domain.sites.find(siteName);
  if (site && domain.search.keepable(response))
    answers.put(key, ticket, site.site.id, body, searched, response.queryContext.count);
  tellSearched(domain, res, siteName, searched, response.queryContext.count);
}

/** The search.searched taps hear of an answered search; without taps nothing is looked up or built. */
function tellSearched(
  domain: SearchRouteDomain,
  res: Response,
  site: string,
  params: SearchParams,
  count: number,
): void {
  if (!domain.searched.isUsed()) return;
  const config = domain.sites.find(site);
  if (config) domain.searched.call({ site: config.site, params, count, principal: principalOf(res) });
}

const HIT = { 'X-Cache': 'HIT' };
const MISS = { 'X-Cache': 'MISS' };
const NO_CACHE = {};

/**
 * The search by query string, as GET /api/sn/<site>/search and the guest search serve it: the spec members they
 * share (the query read from the raw query string, the answer) and the handler.
 */
export const queryStringSearch = {
  query: searchQueryDoc,
  validate: false,
  responses: answers('the search response', searchResponseSchema),
} as const;

export const searchByQueryString =
  (domain: SearchRouteDomain): RequestHandler =>
  (req, res) =>
    answerSearch(domain, req, res, `GET ${req.originalUrl}`, () =>
      parseSearchParams(req.path, rawQuery(req.originalUrl)),
    );

/** The field a list answers when fl names none, as the original's. */
const LIST_FIELD = 'title';

/**
 * GET /api/sn/<site>/search/list: the search, answered as the fl fields of its results (spotlights placed among
 * them left out, as the original lists the engine's results only), not highlighted, grouping ignored.
 */
const listSearch =
  (domain: SearchRouteDomain): RequestHandler =>
  async (req, res) => {
    const siteName = String(req.params.siteName);
    const parsed = parseSearchParams(req.path, rawQuery(req.originalUrl));
    const fields = parsed.fieldList ?? [LIST_FIELD];
    const params: SearchParams = { ...parsed, fieldList: fields, group: null, highlight: false };
    const response = await domain.search.search(siteName, params);
    const documents = (response.results?.document ?? []).filter((doc) => !doc.elevate);
    res.json(fields.length > 1 ? documents.map((doc) => pick(doc.fields, fields)) : valuesOf(documents, fields[0]!));
    tellSearched(
      domain,
      res,
      siteName,
      { ...params, locale: response.queryContext.query.locale },
      response.queryContext.count,
    );
  };

/** The fields named that a result has (null ones left out). */
function pick(fields: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(
    names.filter((name) => Object.hasOwn(fields, name) && fields[name] != null).map((name) => [name, fields[name]]),
  );
}

function valuesOf(documents: Array<{ fields: Record<string, unknown> }>, name: string): unknown[] {
  return documents
    .map((doc) => (Object.hasOwn(doc.fields, name) ? doc.fields[name] : undefined))
    .filter((value) => value !== undefined && value !== null);
}

/**
 * The search routes, at the original's public paths (/api/sn/...) and at its v2 paths (/api/v2/sn/..., which the
 * original serves the same search to authenticated callers only).
 */
export function mountSearchRoutes(router: ApiRouter, domain: SearchRouteDomain): void {
  mountSearchRoutesAt(router.withDefaults({ access: 'public', tags }), '/api/sn', '', domain);
  mountSearchRoutesAt(
    router.withDefaults({ access: 'key', scope: 'search', tags }),
    '/api/v2/sn',
    " (the original's v2 path: an API token with the search scope)",
    domain,
  );
}

function mountSearchRoutesAt(search: RouteGroup, base: string, note: string, domain: SearchRouteDomain): void {
  search.get(
    `${base}/:siteName/search`,
    {
      summary: `Search a site: results, facets and every navigation link pre-built${note}`,
      params: siteParam,
      ...queryStringSearch,
      description:
        'Query parameters are read from the raw query string (repeatable fq[]); see docs/search-reference.md.',
    },
    searchByQueryString(domain),
  );

  search.post(
    `${base}/:siteName/search`,
    {
      summary: `Search with a JSON body (its non-null members override the query parameters)${note}`,
      params: siteParam,
      body: postBody,
      responses: queryStringSearch.responses,
    },
    (req, res) =>
      answerSearch(domain, req, res, `POST ${req.originalUrl}\u0000${JSON.stringify(req.body)}`, () =>
        parseSearchParams(req.path, rawQuery(req.originalUrl), req.body as PostBody),
      ),
  );

  search.get(
    `${base}/:siteName/search/list`,
    {
      summary: `Search a site and answer one field of each result (fl, default title), or objects of the fields fl names${note}`,
      params: siteParam,
      query: searchQueryDoc,
      validate: false,
      description:
        'The parameters of GET /api/sn/{siteName}/search. One field: its value per result (results without it are skipped); two or more: an object of those fields per result. Not highlighted.',
      responses: answers('the values, in result order', { type: 'array', items: {} }),
    },
    listSearch(domain),
  );

  search.list(
    `${base}/:siteName/search/locales`,
    {
      summary: `The locales of a site, each with a link to the match-all search in it ([] for an unknown site)${note}`,
      params: siteParam,
      description: 'locales',
      items: { type: 'object', properties: { locale: { type: 'string' }, link: { type: 'string' } } },
    },
    (req) => {
      // An unknown site has no locales: [], as the original answers.
      const config = domain.sites.find(String(req.params.siteName));
      if (!config) return [];
      // q=* so that following a link is a valid search (q is required).
      return domain.search.localeLinks(
        config,
        linkBaseFromUrl(`${base}/${encodeURIComponent(config.site.name)}/search?q=*`),
      );
    },
  );
}

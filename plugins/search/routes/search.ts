import type { ApiRouter } from '../../../runtime/index.js';
import { linkBaseFromUrl } from '../links/query-string.js';
import { parseSearchParams, type PostBody } from '../search/search-params.js';
import type { SearchDomain } from './route-context.js';

const tags = ['search'];
const siteParam = { type: 'object', properties: { siteName: { type: 'string' } } };
const queryDoc = {
  type: 'object',
  properties: {
    q: { type: 'string', description: 'the query; * for every document (required)' },
    _setlocale: { type: 'string', description: 'locale, e.g. en_US (required)' },
    p: { type: 'string', description: 'page, from 1' },
    rows: { type: 'string', description: 'results per page (default: the site rowsPerPage; at most 1000)' },
    sort: { type: 'string', description: 'relevance | newest | oldest | field:asc | field:desc' },
    'fq[]': { type: 'array', items: { type: 'string' }, description: 'filter field:value (repeatable)' },
    'fq.and[]': { type: 'array', items: { type: 'string' } },
    'fq.or[]': { type: 'array', items: { type: 'string' } },
    'fq.op': { type: 'string', description: 'AND | OR between facets' },
    'fqi.op': { type: 'string', description: 'AND | OR between values of a facet' },
    'tr[]': { type: 'array', items: { type: 'string' }, description: 'targeting rule field:value' },
    group: { type: 'string', description: 'group results by a facet field' },
    fl: { type: 'string', description: 'comma-separated fields to return' },
  },
};
const postBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    userId: { type: ['string', 'null'] }, query: { type: ['string', 'null'] }, locale: { type: ['string', 'null'] },
    page: { type: ['integer', 'null'], minimum: 1 }, rows: { type: ['integer', 'null'], minimum: 1 }, sort: { type: ['string', 'null'] },
    group: { type: ['string', 'null'] }, fq: { type: ['array', 'null'], items: { type: 'string' } }, fqAnd: { type: ['array', 'null'], items: { type: 'string' } },
    fqOr: { type: ['array', 'null'], items: { type: 'string' } }, fqOperator: { type: ['string', 'null'] }, fqItemOperator: { type: ['string', 'null'] },
    fieldList: { type: ['array', 'null'], items: { type: 'string' } }, disableAutoComplete: { type: ['boolean', 'null'] },
    populateMetrics: { type: ['boolean', 'null'] }, targetingRules: { type: ['array', 'null'], items: { type: 'string' } },
    targetingRulesWithCondition: { type: ['object', 'null'] }, targetingRulesWithConditionAND: { type: ['object', 'null'] }, targetingRulesWithConditionOR: { type: ['object', 'null'] },
  },
};

const rawQuery = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
};

export function mountSearchRoutes(router: ApiRouter, domain: SearchDomain): void {
  router.get('/api/sn/:siteName/search', {
    tags, summary: 'Search a site: results, facets and every navigation link pre-built', params: siteParam, query: queryDoc, validate: false,
    description: 'Query parameters are read from the raw query string (repeatable fq[]); see docs/search.md.',
    responses: { 200: { description: 'the search response' } },
  }, async (req, res) => {
    const params = parseSearchParams(req.path, rawQuery(req.originalUrl));
    res.json(await domain.search.search(String(req.params.siteName), params));
  });

  router.post('/api/sn/:siteName/search', {
    tags, summary: 'Search with a JSON body (its non-null members override the query parameters)', params: siteParam, body: postBody,
    responses: { 200: { description: 'the search response' } },
  }, async (req, res) => {
    const params = parseSearchParams(req.path, rawQuery(req.originalUrl), req.body as PostBody);
    res.json(await domain.search.search(String(req.params.siteName), params));
  });

  router.get('/api/sn/:siteName/search/locales', {
    tags, summary: 'The locales of a site, each with a link to the match-all search in it', params: siteParam,
    responses: { 200: { description: 'locales', schema: { type: 'array', items: { type: 'object', properties: { locale: { type: 'string' }, link: { type: 'string' } } } } } },
  }, (req, res) => {
    const config = domain.sites.get(String(req.params.siteName));
    // q=* so that following a link is a valid search (q is required).
    res.json(domain.search.localeLinks(config, linkBaseFromUrl(`/api/sn/${encodeURIComponent(config.site.name)}/search?q=*`)));
  });
}

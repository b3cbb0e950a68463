import type { SearchSites } from '@vela/plugin-search/api';
import {
  type ApiRouter,
  answers,
  checkTypedText,
  httpErrors,
  type JsonSchema,
  normalizeLocale,
  pathParams,
  principalOf,
  type RouteGroup,
  recordSchema,
  siteRefSchema,
  validateAgainst,
} from 'vela/plugin';
import { PERIODS, type Period } from '../metrics/periods.js';
import type { SearchMetrics } from '../metrics/search-metrics.js';

const termCount = recordSchema({
  term: { type: 'string', description: 'the term as grouped: accents stripped, spaces collapsed, lower case' },
  count: { type: 'integer', description: 'searches in the period' },
  averageHits: { type: 'number', description: 'average number of results those searches found' },
  lastSearchedAt: 'string',
});
const termsReport: JsonSchema = {
  type: 'object',
  properties: {
    period: { type: 'string', enum: [...PERIODS] },
    from: { type: ['string', 'null'], description: 'start of the period (UTC); null for all time' },
    searches: {
      type: 'integer',
      description: 'searches recorded in the period (zero-result terms: those that found nothing)',
    },
    previousPeriodSearches: {
      type: ['integer', 'null'],
      description: 'the same count for the period before (null for all time)',
    },
    terms: { type: 'array', items: termCount },
  },
};
const count = (description: string): JsonSchema => ({ type: 'integer', description });
const liveReport: JsonSchema = {
  type: 'object',
  required: [
    'site',
    'now',
    'searchesLastMinute',
    'searchesLastHour',
    'searchesToday',
    'zeroResultsToday',
    'latest',
    'recorder',
  ],
  properties: {
    site: { type: 'string', description: 'the site name' },
    now: { type: 'string', description: 'when the counts were taken' },
    searchesLastMinute: count('searches in the last 60 seconds'),
    searchesLastHour: count('searches in the last 60 minutes'),
    searchesToday: count('searches since midnight UTC'),
    zeroResultsToday: count('of those, searches that found nothing'),
    latest: {
      type: 'array',
      description: 'the newest searches, newest first',
      items: recordSchema({
        term: 'string',
        locale: 'string',
        userId: 'string?',
        numFound: 'integer',
        searchedAt: 'string',
      }),
    },
    recorder: {
      type: 'object',
      description: "this process's metrics queue",
      properties: {
        queued: count('waiting to be written'),
        written: count('written since the start'),
        dropped: count('dropped because the queue was full'),
        failed: count('lost because their write failed'),
      },
    },
  },
};
/** Optional (without it, the user behind the credentials), so checked by the route rather than the router. */
const latestBody: JsonSchema = {
  type: 'object',
  properties: { userId: { type: ['string', 'null'], maxLength: 100, description: 'the user whose searches to list' } },
};

/** The body's userId: undefined when there is no body or no member; a body other than an object is refused. */
function userIdOf(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  const checked = validateAgainst<{ userId?: string | null }>(latestBody, body, { root: 'body' });
  if (!checked.valid) throw httpErrors.validation(checked.problems.join('; '));
  return checked.value.userId || undefined;
}

const reportParams = pathParams({
  id: siteRefSchema,
  period: {
    type: 'string',
    enum: [...PERIODS],
    description: 'today, this-week (from Monday), this-month (from the 1st), all-time; UTC',
  },
  rows: { type: 'integer', minimum: 1, maximum: 1000, description: 'terms to list' },
});

/** What the metrics routes read: the metrics, and the search service's sites (resolved on each request). */
export interface MetricsRouteDomain {
  metrics: SearchMetrics;
  sites: () => SearchSites;
}

export function mountMetricsRoutes(router: ApiRouter, { metrics, sites }: MetricsRouteDomain): void {
  // Reading what was searched takes an API token (Key or Bearer) with the search scope, as the original refuses a
  // caller it does not know; pages on the public origins may call it with one, as they call the search.
  const reads = router.withDefaults({ access: 'key', scope: 'search', tags: ['metrics'] });
  // Also at the original's v2 path of the search.
  for (const base of ['/api/sn', '/api/v2/sn']) mountLatest(reads, base, sites, metrics);

  reads.item(
    'get',
    '/api/sn/:id/metrics/live',
    {
      summary: 'Searches of a site as they happen: counts for the last minute, hour and day, and the newest searches',
      params: pathParams({ id: siteRefSchema }),
      query: {
        type: 'object',
        properties: {
          rows: { type: 'integer', minimum: 1, maximum: 1000, default: 20, description: 'newest searches to list' },
        },
      },
      description: 'the counts and the newest searches',
      schema: liveReport,
    },
    async (req) => {
      const site = sites().get(String(req.params.id));
      return { site: site.name, ...(await metrics.live(site.id, (req.query as unknown as { rows: number }).rows)) };
    },
  );

  for (const [kind, zeroOnly] of [
    ['top-terms', false],
    ['zero-result-terms', true],
  ] as const) {
    reads.item(
      'get',
      `/api/sn/:id/metrics/${kind}/:period/:rows`,
      {
        summary: zeroOnly
          ? 'The terms whose searches found nothing, most searched first, in a period'
          : 'The most searched terms of a site in a period, with their counts and average hits',
        params: reportParams,
        description: 'the report',
        schema: termsReport,
      },
      async (req) => {
        const site = sites().get(String(req.params.id));
        const params = req.params as unknown as { period: Period; rows: number };
        return { site: site.name, ...(await metrics.terms(site.id, params.period, params.rows, zeroOnly)) };
      },
    );
  }
}

/** Latest searches at one base path. */
function mountLatest(reads: RouteGroup, base: string, sites: () => SearchSites, metrics: SearchMetrics): void {
  reads.post(
    `${base}/:siteName/search/latest`,
    {
      crossOrigin: 'public',
      tags: ['search'],
      summary: "A user's latest distinct search terms on a site, newest first ([] for an unknown site or locale)",
      description:
        'JSON body {"userId": "..."} (optional: without it, the user behind the Key, the Bearer token or the session). Searches are recorded by POST /api/sn/{siteName}/search with a userId when populateMetrics is true (the default) and q is not *.',
      params: pathParams({ siteName: siteRefSchema }),
      query: {
        type: 'object',
        properties: {
          _setlocale: { type: 'string', maxLength: 20, description: 'the locale (required; `locale` is accepted too)' },
          locale: { type: 'string', maxLength: 20 },
          rows: { type: 'integer', minimum: 1, maximum: 100, default: 5, description: 'terms to answer' },
          q: { type: 'string', maxLength: 1000, description: 'only terms starting with this text; empty or * for all' },
        },
      },
      bodyContentTypes: ['application/json'],
      responses: answers('terms, newest first', { type: 'array', items: { type: 'string' } }),
    },
    async (req, res) => {
      const query = req.query as unknown as { _setlocale?: string; locale?: string; rows: number; q?: string };
      const locale = query._setlocale || query.locale;
      if (!locale)
        throw httpErrors.missingParameter(
          '_setlocale',
          'give the locale whose searches to list, e.g. _setlocale=en_US',
        );
      const userId = userIdOf(req.body) || principalOf(res)!.username;
      const prefix = query.q && query.q.trim() !== '*' ? checkTypedText('q', query.q) : null;
      const site = sites().find(String(req.params.siteName));
      const asked = normalizeLocale(locale);
      // No site or locale of that name has searches: [], as the original answers.
      if (!site?.locales.includes(asked)) return void res.json([]);
      res.json(await metrics.latest(site.id, asked, userId, query.rows, prefix));
    },
  );
}

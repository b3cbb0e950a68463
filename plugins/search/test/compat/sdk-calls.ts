/**
 * The calls the original's JavaScript SDK (`@viglet/turing-sdk`, turing-js-sdk/ in the original's repository)
 * makes in its README, its USAGE_EXAMPLES.md and its sample app, as data: the SDK method and arguments as the
 * example writes them, the request that puts on the wire, and what the original answers. compat-sdk.test.ts sends
 * each one to Vela.
 *
 * The requests are built by the SDK's own rules (TurSNSiteSearchService.ts on axios), reproduced below, and each
 * call also carries its request line written out, so the table reads without running it and a slip in either is
 * caught.
 */

/** TurSNSearchParams: the GET parameters of search, searchPost and searchList (values as the caller typed them). */
export interface SdkSearchParams {
  q?: string;
  currentPage?: number | string;
  filterQueriesDefault?: string[];
  filterQueriesAnd?: string[];
  filterQueriesOr?: string[];
  fqOperator?: 'AND' | 'OR' | 'NONE';
  fqItemOperator?: 'AND' | 'OR' | 'NONE';
  sort?: string;
  rows?: number | string;
  group?: string;
  autoCorrectionDisabled?: number;
  localeRequest?: string;
}

/** The SDK's normalizeParams: each member's name on the wire, in the order it adds them. */
const WIRE_NAMES: [keyof SdkSearchParams, string][] = [
  ['q', 'q'],
  ['currentPage', 'p'],
  ['filterQueriesDefault', 'fq'],
  ['filterQueriesAnd', 'fqAnd'],
  ['filterQueriesOr', 'fqOr'],
  ['fqOperator', 'fqOperator'],
  ['fqItemOperator', 'fqItemOperator'],
  ['sort', 'sort'],
  ['rows', 'rows'],
  ['group', 'group'],
  ['autoCorrectionDisabled', 'autoCorrectionDisabled'],
  ['localeRequest', '_setlocale'],
];

export type SdkMethod =
  | { method: 'search'; site: string; params?: SdkSearchParams }
  | { method: 'searchPost'; site: string; body: Record<string, unknown>; params?: SdkSearchParams }
  | { method: 'searchList'; site: string; params?: SdkSearchParams }
  | { method: 'getLocales'; site: string }
  | { method: 'getLatestSearches'; site: string; rows?: number; locale?: string; request?: { userId?: string } }
  | { method: 'chatMessage'; site: string; query: string; localeRequest?: string };

/** How the example set up its service: nothing, setAuth(token) (Authorization: Bearer), or a Key header. */
export type Auth = 'none' | 'bearer' | 'key';

/** A document of the sample sites (`topic` and `locale` say where it is; they are not imported). */
export interface SampleDoc {
  id: string;
  title: string;
  description: string;
  text: string;
  url: string;
  type: string;
  category: string;
  tag: string[];
  audience?: string;
  publication_date: string;
  topic: string;
  locale: 'en_US' | 'pt_BR';
}

/** What the original answers, and what of its content the test checks. */
export interface Expected {
  answer: 'search' | 'groups' | 'list' | 'locales' | 'latest' | 'chat';
  /** Search and list: the sample documents the call finds (of the locale asked for; en_US when none is). */
  finds?: (d: SampleDoc) => boolean;
  /** Search: results on the page, and its number. */
  pageSize?: number;
  page?: number;
  /** Search: queryContext.query.locale. */
  locale?: string;
  /** Search: results ordered by publication_date. */
  order?: 'newest' | 'oldest';
  /** Search: the same documents, in the same order, as this request (relevance, where a sort is unusable). */
  sameAs?: string;
  /** Search: queryContext.warnings names what the original would have stumbled on (a field the site lacks). */
  warns?: boolean;
  /** Search: the spell-corrected text was not searched. */
  notCorrected?: boolean;
  /** Groups: the field the results are grouped by. */
  groupedBy?: 'type' | 'category';
  /** Search: a spotlight matches (widget.spotlights holds its documents in the original's form). */
  spotlight?: boolean;
  /** Latest searches: terms the answer holds, and terms it must not. */
  includes?: string[];
  excludes?: string[];
  /** Locales: the site's locales. */
  locales?: string[];
  /** Chat: whether the site chats (a site that does answers text; when left out, either). */
  chatEnabled?: boolean;
  /** The status when it is not 200: the body is then an error ({error, message}). */
  status?: number;
}

export interface SdkCall {
  name: string;
  /** The example, as file:line in the original's turing-js-sdk/ folder. */
  source: string;
  call: SdkMethod;
  auth: Auth;
  /** Headers the example configures on its service (axios config). */
  headers?: Record<string, string>;
  /** The token setAuth is given, when not the site's API token (an example's placeholder). */
  token?: string;
  /** The request line the SDK sends. */
  wire: string;
  expect: Expected;
}

/** axios's buildURL encoding: encodeURIComponent, then `:`, `$` and `,` put back and spaces written `+`. */
export function axiosEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+');
}

/** axios's serialisation of `params`: in member order, arrays as `name[]` per value, undefined members left out. */
export function axiosQuery(params: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    const key = Array.isArray(value) ? `${name}[]` : name;
    for (const v of values) pairs.push(`${axiosEncode(key)}=${axiosEncode(v === null ? '' : String(v))}`);
  }
  return pairs.join('&');
}

function normalizeParams(params: SdkSearchParams = {}): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [member, name] of WIRE_NAMES) if (params[member] !== undefined) wire[name] = params[member];
  return wire;
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

/** The request the SDK sends for a call: method, path with query string, and JSON body (none when undefined). */
export function sdkRequest(call: SdkMethod): { method: 'GET' | 'POST'; path: string; body?: unknown } {
  const base = `/api/sn/${call.site}`;
  switch (call.method) {
    case 'search':
      return { method: 'GET', path: withQuery(`${base}/search`, axiosQuery(normalizeParams(call.params))) };
    case 'searchList':
      return { method: 'GET', path: withQuery(`${base}/search/list`, axiosQuery(normalizeParams(call.params))) };
    case 'searchPost':
      return {
        method: 'POST',
        path: withQuery(`${base}/search`, axiosQuery(normalizeParams(call.params))),
        body: call.body,
      };
    case 'getLocales':
      return { method: 'GET', path: `${base}/search/locales` };
    case 'getLatestSearches':
      return {
        method: 'POST',
        path: withQuery(`${base}/search/latest`, axiosQuery({ rows: call.rows, locale: call.locale })),
        body: call.request,
      };
    case 'chatMessage':
      return {
        method: 'GET',
        path: withQuery(`${base}/chat`, axiosQuery({ q: call.query, _setlocale: call.localeRequest })),
      };
  }
}

const TOPICS = [
  'artificial intelligence',
  'machine learning',
  'data science',
  'neural networks',
  'search query',
  'test query',
  'cloud storage',
  'web design',
] as const;
const TYPES = ['article', 'news', 'tutorial'];
const CATEGORIES = ['technology', 'science', 'business'];
const TAGS = [['ai'], ['ml'], ['ai', 'ml'], ['nlp'], []];
const AUDIENCES = ['technical', 'business', 'general'];
const DAY = 86_400_000;

function sampleDoc(i: number, locale: SampleDoc['locale']): SampleDoc {
  const topic = TOPICS[i % TOPICS.length]!;
  const type = TYPES[i % 3]!;
  const prefix = locale === 'en_US' ? 'kb' : 'pt';
  return {
    id: `${prefix}-${String(i).padStart(2, '0')}`,
    title: `${topic[0]!.toUpperCase()}${topic.slice(1)} ${type} ${i}`,
    description: `A ${type} on ${topic}.`,
    text: `Everything about ${topic}, explained.`,
    url: `https://kb.example/${prefix}/${i}`,
    type,
    category: CATEGORIES[Math.floor(i / 3) % 3]!,
    tag: TAGS[i % TAGS.length]!,
    ...(i % 4 === 3 ? {} : { audience: AUDIENCES[Math.floor(i / 2) % 3]! }),
    // A permutation of 36 days, so that date order is neither id order nor relevance order.
    publication_date: new Date(Date.UTC(2025, 0, 1) + ((i * 7) % 36) * DAY).toISOString(),
    topic,
    locale,
  };
}

/** Every sample site holds these: 36 documents in en_US, 4 in pt_BR. */
export const SAMPLE_DOCS: SampleDoc[] = [
  ...Array.from({ length: 36 }, (_, i) => sampleDoc(i, 'en_US')),
  ...Array.from({ length: 4 }, (_, i) => sampleDoc(i, 'pt_BR')),
];

/** The sites the examples name; each is made with the same fields and documents. */
export const SAMPLE_SITES = ['sample-site', 'yourSiteName', 'wknd-author'];

/**
 * The fields the examples filter, target and read by: `status`, `level` and `date` (which they also name) are
 * deliberately not among them.
 */
export const SAMPLE_FIELDS = [
  { name: 'id', type: 'STRING' },
  { name: 'title', type: 'TEXT', hl: true },
  { name: 'description', type: 'TEXT' },
  { name: 'text', type: 'TEXT' },
  { name: 'url', type: 'STRING' },
  { name: 'type', type: 'STRING', facet: true, facetName: 'Types', facetPosition: 1 },
  { name: 'category', type: 'STRING', facet: true, facetName: 'Categories', facetPosition: 2 },
  { name: 'tag', type: 'STRING', facet: true, facetName: 'Tags', facetPosition: 3, multiValued: true },
  { name: 'audience', type: 'STRING', facet: true, facetName: 'Audiences', facetPosition: 4 },
  { name: 'publication_date', type: 'DATE' },
];

/** A spotlight of sample-site: a search for cloud storage shows it. */
export const SAMPLE_SPOTLIGHT = {
  name: 'Storage offer',
  terms: ['cloud storage'],
  documents: [{ position: 1, title: 'Storage plans', content: 'Plans and prices', link: 'https://kb.example/plans' }],
};

const about = (topic: string) => (d: SampleDoc) => d.topic === topic;
const every = () => true;
const technicalOrUntargeted = (d: SampleDoc) => d.audience === undefined || d.audience === 'technical';

const README = 'js-sdk-lib/README.md';
const USAGE = 'js-sdk-lib/USAGE_EXAMPLES.md';
const SAMPLE = 'js-sdk-sample/src/app/search.root.page.tsx';
/** USAGE_EXAMPLES.md:21 calls setAuth on the service every later example of that file uses. */
const USAGE_AUTH: Auth = 'bearer';
/** The sample app's values (js-sdk-sample/.env): rows, page and locale; sort is read from VITE_SN_DEFAULT_PAGE. */
const APP = { rows: '10', currentPage: '1', sort: '1', localeRequest: 'en-US' };

export const SDK_CALLS: SdkCall[] = [
  // README.md
  {
    name: 'quick start search',
    source: `${README}:21`,
    call: {
      method: 'search',
      site: 'yourSiteName',
      params: { q: 'search query', rows: 10, currentPage: 1, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/yourSiteName/search?q=search+query&p=1&rows=10&_setlocale=en_US',
    expect: { answer: 'search', finds: about('search query'), page: 1, locale: 'en_US' },
  },
  {
    name: 'CommonJS search with fqOperator AND',
    source: `${README}:38`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: 'artificial intelligence', rows: 10, currentPage: 1, fqOperator: 'AND', localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=artificial+intelligence&p=1&fqOperator=AND&rows=10&_setlocale=en_US',
    expect: { answer: 'search', finds: about('artificial intelligence') },
  },
  {
    name: 'search sorted by relevance',
    source: `${README}:83`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: {
        q: 'artificial intelligence',
        rows: 20,
        currentPage: 1,
        sort: 'relevance',
        fqOperator: 'AND',
        localeRequest: 'en_US',
      },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=artificial+intelligence&p=1&fqOperator=AND&sort=relevance&rows=20&_setlocale=en_US',
    expect: {
      answer: 'search',
      finds: about('artificial intelligence'),
      sameAs: '/api/sn/sample-site/search?q=artificial+intelligence&p=1&rows=20&_setlocale=en_US',
    },
  },
  {
    name: 'searchPost with targeting rules that name no field',
    source: `${README}:98`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: {
        userId: 'user123',
        query: 'machine learning',
        populateMetrics: true,
        targetingRules: ['rule1', 'rule2'],
        localeRequest: 'en_US',
      },
      params: { rows: 15 },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search?rows=15',
    expect: { answer: 'search', finds: about('machine learning'), locale: 'en_US', warns: true },
  },
  {
    name: 'searchList',
    source: `${README}:114`,
    call: {
      method: 'searchList',
      site: 'sample-site',
      params: { q: 'data science', rows: 50, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search/list?q=data+science&rows=50&_setlocale=en_US',
    expect: { answer: 'list', finds: about('data science') },
  },
  {
    name: 'getLocales',
    source: `${README}:128`,
    call: { method: 'getLocales', site: 'sample-site' },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search/locales',
    expect: { answer: 'locales', locales: ['en_US', 'pt_BR'] },
  },
  {
    name: 'getLatestSearches without credentials or user',
    source: `${README}:136`,
    call: { method: 'getLatestSearches', site: 'sample-site', rows: 10, locale: 'en_US' },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search/latest?rows=10&locale=en_US',
    // Whose searches? Neither a user nor credentials say: the original refuses it too.
    expect: { answer: 'latest', status: 401 },
  },
  {
    name: 'chatMessage',
    source: `${README}:146`,
    call: {
      method: 'chatMessage',
      site: 'sample-site',
      query: 'What is artificial intelligence?',
      localeRequest: 'en_US',
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/chat?q=What+is+artificial+intelligence%3F&_setlocale=en_US',
    expect: { answer: 'chat' },
  },
  {
    name: 'error handling search',
    source: `${README}:222`,
    call: { method: 'search', site: 'sample-site', params: { q: 'test', localeRequest: 'en_US' } },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=test&_setlocale=en_US',
    expect: { answer: 'search', finds: about('test query') },
  },
  {
    name: 'advanced configuration headers',
    source: `${README}:65`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: 'artificial intelligence', rows: 20, currentPage: 1, sort: 'relevance', localeRequest: 'en_US' },
    },
    auth: 'none',
    headers: { 'User-Agent': 'MyApp/1.0' },
    wire: 'GET /api/sn/sample-site/search?q=artificial+intelligence&p=1&sort=relevance&rows=20&_setlocale=en_US',
    expect: { answer: 'search', finds: about('artificial intelligence') },
  },
  // README.md's parameter table (TurSNSearchParams), one member at a time.
  {
    name: 'parameter q',
    source: `${README}:157`,
    call: { method: 'search', site: 'sample-site', params: { q: 'neural networks', localeRequest: 'en_US' } },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=neural+networks&_setlocale=en_US',
    expect: { answer: 'search', finds: about('neural networks') },
  },
  {
    name: 'parameter currentPage',
    source: `${README}:158`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', currentPage: 2, rows: 5, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&p=2&rows=5&_setlocale=en_US',
    expect: { answer: 'search', finds: every, page: 2, pageSize: 5 },
  },
  {
    name: 'parameter currentPage 0, as a client counting pages from 0 sends it',
    source: `${README}:158`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', currentPage: 0, rows: 5, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&p=0&rows=5&_setlocale=en_US',
    expect: {
      answer: 'search',
      finds: every,
      pageSize: 5,
      sameAs: '/api/sn/sample-site/search?q=*&p=1&rows=5&_setlocale=en_US',
    },
  },
  {
    name: 'parameter rows',
    source: `${README}:159`,
    call: { method: 'search', site: 'sample-site', params: { q: '*', rows: 3, localeRequest: 'en_US' } },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&rows=3&_setlocale=en_US',
    expect: { answer: 'search', finds: every, pageSize: 3 },
  },
  {
    name: 'parameter sort newest',
    source: `${README}:160`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', sort: 'newest', rows: 36, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&sort=newest&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: every, pageSize: 36, order: 'newest' },
  },
  {
    name: 'parameter sort oldest',
    source: `${README}:160`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', sort: 'oldest', rows: 36, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&sort=oldest&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: every, pageSize: 36, order: 'oldest' },
  },
  {
    name: 'parameter sort field:asc',
    source: `${README}:160`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', sort: 'publication_date:asc', rows: 36, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&sort=publication_date:asc&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: every, pageSize: 36, order: 'oldest' },
  },
  {
    name: 'parameter filterQueriesDefault',
    source: `${README}:161`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', filterQueriesDefault: ['type:article'], rows: 36, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fq%5B%5D=type:article&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.type === 'article' },
  },
  {
    name: 'parameter filterQueriesAnd',
    source: `${README}:162`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', filterQueriesAnd: ['category:technology', 'type:news'], rows: 36, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fqAnd%5B%5D=category:technology&fqAnd%5B%5D=type:news&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.category === 'technology' && d.type === 'news' },
  },
  {
    name: 'parameter filterQueriesOr',
    source: `${README}:163`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: {
        q: '*',
        filterQueriesOr: ['category:technology', 'type:news'],
        rows: 36,
        localeRequest: 'en_US',
      },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fqOr%5B%5D=category:technology&fqOr%5B%5D=type:news&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.category === 'technology' || d.type === 'news' },
  },
  {
    name: 'parameter fqOperator OR',
    source: `${README}:164`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: {
        q: '*',
        filterQueriesDefault: ['category:technology', 'type:news'],
        fqOperator: 'OR',
        rows: 36,
        localeRequest: 'en_US',
      },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fq%5B%5D=category:technology&fq%5B%5D=type:news&fqOperator=OR&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.category === 'technology' || d.type === 'news' },
  },
  {
    name: 'parameter fqItemOperator OR',
    source: `${README}:165`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: {
        q: '*',
        filterQueriesDefault: ['category:technology', 'category:science'],
        fqItemOperator: 'OR',
        rows: 36,
        localeRequest: 'en_US',
      },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fq%5B%5D=category:technology&fq%5B%5D=category:science&fqItemOperator=OR&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.category === 'technology' || d.category === 'science' },
  },
  {
    name: 'parameter group',
    source: `${README}:166`,
    call: { method: 'search', site: 'sample-site', params: { q: '*', group: 'type', localeRequest: 'en_US' } },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&group=type&_setlocale=en_US',
    expect: { answer: 'groups', finds: every, groupedBy: 'type' },
  },
  {
    name: 'parameter autoCorrectionDisabled',
    source: `${README}:167`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: 'machne learning', autoCorrectionDisabled: 1, localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=machne+learning&autoCorrectionDisabled=1&_setlocale=en_US',
    expect: { answer: 'search', finds: () => false, notCorrected: true },
  },
  {
    name: 'parameter localeRequest',
    source: `${README}:168`,
    call: { method: 'search', site: 'sample-site', params: { q: '*', localeRequest: 'pt_BR' } },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&_setlocale=pt_BR',
    expect: { answer: 'search', finds: every, locale: 'pt_BR' },
  },
  {
    name: 'operator NONE: the site decides (AND)',
    source: `${README}:208`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: {
        q: '*',
        filterQueriesDefault: ['category:technology', 'type:news'],
        fqOperator: 'NONE',
        rows: 36,
        localeRequest: 'en_US',
      },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fq%5B%5D=category:technology&fq%5B%5D=type:news&fqOperator=NONE&rows=36&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.category === 'technology' && d.type === 'news' },
  },
  {
    name: 'operator AND between the values of a facet',
    source: `${README}:206`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: '*', filterQueriesDefault: ['tag:ai', 'tag:ml'], fqItemOperator: 'AND', localeRequest: 'en_US' },
    },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=*&fq%5B%5D=tag:ai&fq%5B%5D=tag:ml&fqItemOperator=AND&_setlocale=en_US',
    expect: { answer: 'search', finds: (d) => d.tag.includes('ai') && d.tag.includes('ml') },
  },
  // README.md's TurSNSitePostParams: targeting, filtering, metrics.
  {
    name: 'searchPost filters with fqOperator OR',
    source: `${README}:173`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: { query: '*', fq: ['category:technology', 'type:news'], fqOperator: 'OR', locale: 'en_US', rows: 36 },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'search', finds: (d) => d.category === 'technology' || d.type === 'news' },
  },
  {
    name: 'searchPost page, rows and sort',
    source: `${README}:173`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: { query: '*', page: 2, rows: 5, sort: 'oldest', locale: 'en_US' },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'search', finds: every, page: 2, pageSize: 5, order: 'oldest' },
  },
  {
    name: 'searchPost group',
    source: `${README}:173`,
    call: { method: 'searchPost', site: 'sample-site', body: { query: '*', group: 'category', locale: 'en_US' } },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'groups', finds: every, groupedBy: 'category' },
  },
  {
    name: 'searchPost targetingRules',
    source: `${README}:173`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: { query: '*', targetingRules: ['audience:technical'], locale: 'en_US', rows: 36 },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'search', finds: technicalOrUntargeted },
  },
  {
    name: 'searchPost targetingRulesWithCondition',
    source: `${README}:173`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: {
        query: '*',
        targetingRulesWithCondition: { 'type:article': ['audience:business'] },
        locale: 'en_US',
        rows: 36,
      },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    // The original: ( type:article AND ( audience:business OR no audience ) ) OR not an article.
    expect: {
      answer: 'search',
      finds: (d) => d.type !== 'article' || d.audience === undefined || d.audience === 'business',
    },
  },
  {
    name: 'searchPost disableAutoComplete',
    source: `${README}:173`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: { query: 'neural networks', disableAutoComplete: true, locale: 'en_US' },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'search', finds: about('neural networks') },
  },
  {
    name: 'searchPost populateMetrics false',
    source: `${README}:174`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: { userId: 'user456', query: 'cloud storage', populateMetrics: false, locale: 'en_US' },
    },
    auth: 'none',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'search', finds: about('cloud storage'), spotlight: true },
  },
  // USAGE_EXAMPLES.md: its service has setAuth (line 21) for every example up to line 193.
  {
    name: 'simple search',
    source: `${USAGE}:29`,
    call: { method: 'search', site: 'yourSiteName', params: { q: 'machine learning', rows: 10, currentPage: 1 } },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search?q=machine+learning&p=1&rows=10',
    expect: { answer: 'search', finds: about('machine learning'), locale: 'en_US' },
  },
  {
    name: 'advanced search with filters on fields the site lacks',
    source: `${USAGE}:47`,
    call: {
      method: 'search',
      site: 'yourSiteName',
      params: {
        q: 'artificial intelligence',
        rows: 20,
        currentPage: 1,
        filterQueriesAnd: ['category:technology', 'status:published'],
        filterQueriesOr: ['tag:ai', 'tag:ml'],
        fqOperator: 'AND',
        sort: 'date desc',
        localeRequest: 'en_US',
      },
    },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search?q=artificial+intelligence&p=1&fqAnd%5B%5D=category:technology&fqAnd%5B%5D=status:published&fqOr%5B%5D=tag:ai&fqOr%5B%5D=tag:ml&fqOperator=AND&sort=date+desc&rows=20&_setlocale=en_US',
    // As the SDK documents the names (the original ORs the two parts, see the reference's differences):
    // category:technology AND status:published AND (tag:ai OR tag:ml). No document has a status: none is found.
    expect: { answer: 'search', finds: () => false, warns: true },
  },
  {
    name: 'advanced search filters, on fields the site has',
    source: `${USAGE}:47`,
    call: {
      method: 'search',
      site: 'yourSiteName',
      params: {
        q: '*',
        rows: 36,
        currentPage: 1,
        filterQueriesAnd: ['category:technology'],
        filterQueriesOr: ['tag:ai', 'tag:ml'],
        fqOperator: 'AND',
        localeRequest: 'en_US',
      },
    },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search?q=*&p=1&fqAnd%5B%5D=category:technology&fqOr%5B%5D=tag:ai&fqOr%5B%5D=tag:ml&fqOperator=AND&rows=36&_setlocale=en_US',
    expect: {
      answer: 'search',
      finds: (d) => d.category === 'technology' && (d.tag.includes('ai') || d.tag.includes('ml')),
    },
  },
  {
    name: 'POST search with targeting',
    source: `${USAGE}:75`,
    call: {
      method: 'searchPost',
      site: 'yourSiteName',
      body: {
        userId: 'user123',
        query: 'data science',
        populateMetrics: true,
        targetingRules: ['audience:technical', 'level:advanced'],
        locale: 'en_US',
        fqOperator: 'AND',
      },
      params: { rows: 15 },
    },
    auth: USAGE_AUTH,
    wire: 'POST /api/sn/yourSiteName/search?rows=15',
    // No document has a level: the rule on it excludes none, as the original's "or no such attribute" reads.
    expect: { answer: 'search', finds: (d) => d.topic === 'data science' && technicalOrUntargeted(d), warns: true },
  },
  {
    name: 'search list of document ids',
    source: `${USAGE}:87`,
    call: { method: 'searchList', site: 'yourSiteName', params: { q: 'neural networks', rows: 100 } },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search/list?q=neural+networks&rows=100',
    expect: { answer: 'list', finds: about('neural networks') },
  },
  {
    name: 'available locales',
    source: `${USAGE}:101`,
    call: { method: 'getLocales', site: 'yourSiteName' },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search/locales',
    expect: { answer: 'locales', locales: ['en_US', 'pt_BR'] },
  },
  {
    name: 'latest searches of a user',
    source: `${USAGE}:115`,
    call: {
      method: 'getLatestSearches',
      site: 'yourSiteName',
      rows: 10,
      locale: 'en_US',
      request: { userId: 'user123' },
    },
    auth: USAGE_AUTH,
    wire: 'POST /api/sn/yourSiteName/search/latest?rows=10&locale=en_US',
    expect: { answer: 'latest', includes: ['data science'] },
  },
  {
    name: 'search with error handling',
    source: `${USAGE}:132`,
    call: { method: 'search', site: 'yourSiteName', params: { q: 'test query', rows: 10 } },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search?q=test+query&rows=10',
    expect: { answer: 'search', finds: about('test query') },
  },
  {
    name: 'working with search results',
    source: `${USAGE}:161`,
    call: { method: 'search', site: 'yourSiteName', params: { q: 'artificial intelligence', rows: 10 } },
    auth: USAGE_AUTH,
    wire: 'GET /api/sn/yourSiteName/search?q=artificial+intelligence&rows=10',
    expect: { answer: 'search', finds: about('artificial intelligence'), page: 1 },
  },
  {
    name: 'custom axios configuration headers',
    source: `${USAGE}:201`,
    call: { method: 'search', site: 'yourSiteName', params: { q: 'artificial intelligence', rows: 10 } },
    auth: 'none',
    headers: { 'User-Agent': 'MyApp/1.0', 'Custom-Header': 'custom-value' },
    wire: 'GET /api/sn/yourSiteName/search?q=artificial+intelligence&rows=10',
    expect: { answer: 'search', finds: about('artificial intelligence') },
  },
  {
    name: 'React component search',
    source: `${USAGE}:243`,
    call: { method: 'search', site: 'yourSiteName', params: { q: 'neural networks', rows: 10 } },
    auth: 'none',
    wire: 'GET /api/sn/yourSiteName/search?q=neural+networks&rows=10',
    expect: { answer: 'search', finds: about('neural networks') },
  },
  {
    name: 'Node.js CLI search (a spotlight matches)',
    source: `${USAGE}:301`,
    call: { method: 'search', site: 'sample-site', params: { q: 'cloud storage' } },
    auth: 'none',
    wire: 'GET /api/sn/sample-site/search?q=cloud+storage',
    expect: { answer: 'search', finds: about('cloud storage'), spotlight: true },
  },
  // The sample app: its search of the URL's q, rows, p and sort, with its .env defaults.
  {
    name: 'sample app first load',
    source: `${SAMPLE}:30`,
    call: { method: 'search', site: 'wknd-author', params: { q: '*', ...APP } },
    auth: 'none',
    wire: 'GET /api/sn/wknd-author/search?q=*&p=1&sort=1&rows=10&_setlocale=en-US',
    expect: {
      answer: 'search',
      finds: every,
      pageSize: 10,
      locale: 'en_US',
      sameAs: '/api/sn/wknd-author/search?q=*&p=1&rows=10&_setlocale=en-US',
    },
  },
  {
    name: 'sample app with ?q=',
    source: `${SAMPLE}:30`,
    call: { method: 'search', site: 'wknd-author', params: { ...APP, q: 'machine learning' } },
    auth: 'none',
    wire: 'GET /api/sn/wknd-author/search?q=machine+learning&p=1&sort=1&rows=10&_setlocale=en-US',
    expect: { answer: 'search', finds: about('machine learning') },
  },
  {
    name: 'sample app with ?p=3&rows=5&sort=newest',
    source: `${SAMPLE}:30`,
    call: {
      method: 'search',
      site: 'wknd-author',
      params: { ...APP, q: '*', currentPage: '3', rows: '5', sort: 'newest' },
    },
    auth: 'none',
    wire: 'GET /api/sn/wknd-author/search?q=*&p=3&sort=newest&rows=5&_setlocale=en-US',
    expect: { answer: 'search', finds: every, page: 3, pageSize: 5, order: 'newest' },
  },
  {
    name: 'sample app with ?sort=relevance',
    source: `${SAMPLE}:30`,
    call: { method: 'search', site: 'wknd-author', params: { ...APP, q: '*', sort: 'relevance' } },
    auth: 'none',
    wire: 'GET /api/sn/wknd-author/search?q=*&p=1&sort=relevance&rows=10&_setlocale=en-US',
    expect: {
      answer: 'search',
      finds: every,
      sameAs: '/api/sn/wknd-author/search?q=*&p=1&rows=10&_setlocale=en-US',
    },
  },
  // A Key header configured on the service (axios headers, README.md:65), for each method.
  {
    name: 'search with a Key header',
    source: `${README}:65`,
    call: {
      method: 'search',
      site: 'sample-site',
      params: { q: 'machine learning', rows: 10, localeRequest: 'en_US' },
    },
    auth: 'key',
    wire: 'GET /api/sn/sample-site/search?q=machine+learning&rows=10&_setlocale=en_US',
    expect: { answer: 'search', finds: about('machine learning') },
  },
  {
    name: 'searchPost with a Key header',
    source: `${README}:65`,
    call: {
      method: 'searchPost',
      site: 'sample-site',
      body: { userId: 'user789', query: 'neural networks', locale: 'en_US' },
    },
    auth: 'key',
    wire: 'POST /api/sn/sample-site/search',
    expect: { answer: 'search', finds: about('neural networks') },
  },
  {
    name: 'searchList with a Key header',
    source: `${README}:65`,
    call: { method: 'searchList', site: 'sample-site', params: { q: 'cloud storage', localeRequest: 'en_US' } },
    auth: 'key',
    wire: 'GET /api/sn/sample-site/search/list?q=cloud+storage&_setlocale=en_US',
    expect: { answer: 'list', finds: about('cloud storage') },
  },
  {
    name: 'getLocales with a Key header',
    source: `${README}:65`,
    call: { method: 'getLocales', site: 'wknd-author' },
    auth: 'key',
    wire: 'GET /api/sn/wknd-author/search/locales',
    expect: { answer: 'locales', locales: ['en_US', 'pt_BR'] },
  },
  {
    name: 'getLatestSearches with a Key header',
    source: `${README}:65`,
    call: {
      method: 'getLatestSearches',
      site: 'sample-site',
      rows: 5,
      locale: 'en_US',
      request: { userId: 'user789' },
    },
    auth: 'key',
    wire: 'POST /api/sn/sample-site/search/latest?rows=5&locale=en_US',
    expect: { answer: 'latest', includes: ['neural networks'] },
  },
  {
    name: 'chatMessage with a Key header',
    source: `${README}:65`,
    call: { method: 'chatMessage', site: 'sample-site', query: 'machine learning', localeRequest: 'en_US' },
    auth: 'key',
    wire: 'GET /api/sn/sample-site/chat?q=machine+learning&_setlocale=en_US',
    expect: { answer: 'chat' },
  },
  // setAuth (USAGE_EXAMPLES.md:21) with the methods its examples do not show, and what a user's searches left.
  {
    name: 'chatMessage with setAuth and no locale',
    source: `${USAGE}:21`,
    call: { method: 'chatMessage', site: 'yourSiteName', query: 'machine learning' },
    auth: 'bearer',
    wire: 'GET /api/sn/yourSiteName/chat?q=machine+learning',
    expect: { answer: 'chat' },
  },
  {
    name: "latest searches of the token's user (no request body)",
    source: `${USAGE}:21`,
    call: { method: 'getLatestSearches', site: 'sample-site', rows: 10, locale: 'en_US' },
    auth: 'bearer',
    wire: 'POST /api/sn/sample-site/search/latest?rows=10&locale=en_US',
    expect: { answer: 'latest' },
  },
  {
    name: "search with setAuth's placeholder token",
    source: `${USAGE}:21`,
    call: { method: 'search', site: 'yourSiteName', params: { q: 'machine learning', rows: 10, currentPage: 1 } },
    auth: 'bearer',
    token: 'your-bearer-token',
    wire: 'GET /api/sn/yourSiteName/search?q=machine+learning&p=1&rows=10',
    // The original's search is public and reads no Authorization header: any token goes.
    expect: { answer: 'search', finds: about('machine learning') },
  },
  {
    name: 'latest searches of the README searchPost user',
    source: `${USAGE}:21`,
    call: {
      method: 'getLatestSearches',
      site: 'sample-site',
      rows: 10,
      locale: 'en_US',
      request: { userId: 'user123' },
    },
    auth: 'bearer',
    wire: 'POST /api/sn/sample-site/search/latest?rows=10&locale=en_US',
    expect: { answer: 'latest', includes: ['machine learning'] },
  },
  {
    name: 'latest searches leave out a search with populateMetrics false',
    source: `${USAGE}:21`,
    call: {
      method: 'getLatestSearches',
      site: 'sample-site',
      rows: 10,
      locale: 'en_US',
      request: { userId: 'user456' },
    },
    auth: 'bearer',
    wire: 'POST /api/sn/sample-site/search/latest?rows=10&locale=en_US',
    expect: { answer: 'latest', excludes: ['cloud storage'] },
  },
  // A site name the service does not know: the original answers 200.
  {
    name: 'getLocales of an unknown site',
    source: `${README}:128`,
    call: { method: 'getLocales', site: 'no-such-site' },
    auth: 'none',
    wire: 'GET /api/sn/no-such-site/search/locales',
    expect: { answer: 'locales', locales: [] },
  },
  {
    name: 'chatMessage on an unknown site',
    source: `${README}:146`,
    call: { method: 'chatMessage', site: 'no-such-site', query: 'machine learning', localeRequest: 'en_US' },
    auth: 'none',
    wire: 'GET /api/sn/no-such-site/chat?q=machine+learning&_setlocale=en_US',
    expect: { answer: 'chat', chatEnabled: false },
  },
];

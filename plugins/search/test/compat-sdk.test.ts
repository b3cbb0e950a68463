import test, { type ExecutionContext } from 'ava';
import {
  callService,
  createTestPostgres,
  eventually,
  type JsonAnswer,
  postgresReachable,
  startTestRuntime,
  type TestPostgres,
  type TestRuntime,
} from 'vela/testing';
import {
  SAMPLE_DOCS,
  SAMPLE_FIELDS,
  SAMPLE_SITES,
  SAMPLE_SPOTLIGHT,
  type SampleDoc,
  SDK_CALLS,
  type SdkCall,
  sdkRequest,
} from './compat/sdk-calls.js';

/**
 * Clients written with the original's JavaScript SDK work unchanged: every call of its README, usage examples and
 * sample app, sent as the SDK sends it, gets the original's answer, on SQLite and on PostgreSQL.
 */
interface Setup {
  vela: TestRuntime;
  token: string;
  /** The status of each site's switch to the original's metadata form. */
  metadataForm: number[];
  pg?: TestPostgres;
}

const admin = (vela: TestRuntime, method: string, path: string, body?: unknown) =>
  callService(vela, 'search', method, path, body, { authorization: vela.adminAuth });

async function start(databaseUrl?: string): Promise<TestRuntime> {
  const postgres = databaseUrl !== undefined;
  return startTestRuntime({
    plugins: postgres
      ? ['search', 'search-postgres', 'search-metrics', 'genai']
      : ['search', 'search-metrics', 'genai'],
    databaseUrl,
    config: { plugins: { 'search-metrics': { flushMs: 50 }, ...(postgres ? { search: { engine: 'postgres' } } : {}) } },
  });
}

const attributes = ({ topic: _topic, locale: _locale, ...doc }: SampleDoc) => doc;

async function setUp(databaseUrl?: string): Promise<Setup> {
  const vela = await start(databaseUrl);
  const metadataForm: number[] = [];
  for (const name of SAMPLE_SITES) {
    const created = await admin(vela, 'POST', '/api/sn', {
      name,
      fields: SAMPLE_FIELDS,
      locales: ['en_US', 'pt_BR'],
      defaultLocale: 'en_US',
      defaultDescriptionField: 'description',
      spellCheck: true,
    });
    if (created.status !== 201) throw new Error(`site ${name}: ${JSON.stringify(created.body)}`);
    // The original's document metadata is a flat list of {href, text}: what its clients read.
    metadataForm.push((await admin(vela, 'PUT', `/api/sn/${name}`, { metadataFormat: 'flat' })).status);
    for (const locale of ['en_US', 'pt_BR'] as const) {
      const imported = await admin(vela, 'POST', '/api/sn/import?wait=true', {
        turingDocuments: SAMPLE_DOCS.filter((d) => d.locale === locale).map((d) => ({
          locale,
          turSNJobAction: 'CREATE',
          siteNames: [name],
          attributes: attributes(d),
        })),
      });
      if (imported.status !== 200) throw new Error(`import into ${name}: ${JSON.stringify(imported.body)}`);
    }
  }
  const spotlight = await admin(vela, 'POST', '/api/sn/sample-site/spotlight', SAMPLE_SPOTLIGHT);
  if (spotlight.status !== 201) throw new Error(`spotlight: ${JSON.stringify(spotlight.body)}`);
  const token = await admin(vela, 'POST', '/api/dev/token', { title: 'SDK client' });
  if (token.status !== 201) throw new Error(`token: ${JSON.stringify(token.body)}`);
  return { vela, token: token.body.token, metadataForm };
}

const setups: { sqlite?: Promise<Setup>; postgres?: Promise<Setup> } = {};
const withPostgres = postgresReachable();

test.before(() => {
  setups.sqlite = setUp();
  if (withPostgres)
    setups.postgres = createTestPostgres().then(async (pg) => {
      if (!pg) throw new Error('PostgreSQL refused to create a test database');
      return { ...(await setUp(pg.url)), pg };
    });
  // Both start at once; a failure shows in every test that awaits its setup.
  setups.sqlite.catch(() => {});
  setups.postgres?.catch(() => {});
});

test.after.always(async () => {
  for (const setup of [setups.sqlite, setups.postgres]) {
    const done = await setup?.catch(() => undefined);
    await done?.vela.stop();
    await done?.pg?.drop();
  }
});

/** The headers axios sends for the call (its JSON content type comes with a body), with what the example configured. */
function headersOf(call: SdkCall, token: string): Record<string, string> {
  return {
    accept: 'application/json, text/plain, */*',
    'user-agent': 'axios/1.11.0',
    ...(call.auth === 'bearer' ? { authorization: `Bearer ${call.token ?? token}` } : {}),
    ...(call.auth === 'key' ? { key: token } : {}),
    ...call.headers,
  };
}

/** The call as the SDK sends it; with `path`, a GET of that path with the same headers. */
function send(setup: Setup, call: SdkCall, path?: string): Promise<JsonAnswer> {
  const request = path ? { method: 'GET', path, body: undefined } : sdkRequest(call.call);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return callService(setup.vela, 'search', request.method, request.path, body, headersOf(call, setup.token));
}

/** The type of a JSON value, as the shape checks name it. */
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 120 ? `${s.slice(0, 120)}...` : s;
};

/** Shape checks collect every difference, so one failure lists all that a call gets wrong. */
class Shape {
  readonly problems: string[] = [];
  is(path: string, value: unknown, ...kinds: string[]): boolean {
    if (kinds.includes(kind(value))) return true;
    this.problems.push(`${path}: ${kinds.join(' or ')} expected, got ${show(value)}`);
    return false;
  }
  equal(path: string, value: unknown, expected: unknown): void {
    if (show(value) !== show(expected)) this.problems.push(`${path}: ${show(expected)} expected, got ${show(value)}`);
  }
  check(what: string, ok: boolean): void {
    if (!ok) this.problems.push(what);
  }
  /** Each member of `members` at `path` in `value`, of its kinds. */
  members(path: string, value: any, members: Record<string, string[]>): boolean {
    if (!this.is(path, value, 'object')) return false;
    for (const [name, kinds] of Object.entries(members)) this.is(`${path}.${name}`, value[name], ...kinds);
    return true;
  }
}

const PAGINATION_TYPES = ['FIRST', 'LAST', 'PREVIOUS', 'NEXT', 'CURRENT', 'PAGE'];
const NUMBER = ['number'];
const STRING = ['string'];
const TEXT = ['string', 'null'];
const BOOL = ['boolean'];
const ARRAY = ['array'];
const OBJECT = ['object'];

function paginationShape(s: Shape, path: string, items: unknown, site: string): void {
  if (!s.is(path, items, 'array')) return;
  (items as any[]).forEach((item, i) => {
    if (!s.members(`${path}[${i}]`, item, { type: STRING, text: STRING, href: STRING, page: NUMBER })) return;
    s.check(
      `${path}[${i}].type: one of ${PAGINATION_TYPES.join(',')}, got ${item.type}`,
      PAGINATION_TYPES.includes(item.type),
    );
    s.check(
      `${path}[${i}].href: a link to /api/sn/${site}/search, got ${item.href}`,
      String(item.href).startsWith(`/api/sn/${site}/search`),
    );
  });
}

/** A document in the original's form: metadata is its flat list of {href, text}, one per facet value. */
function documentShape(s: Shape, path: string, doc: any): void {
  if (!s.members(path, doc, { source: TEXT, elevate: BOOL, metadata: ARRAY, fields: OBJECT })) return;
  for (const [i, m] of (doc.metadata as any[]).entries())
    s.members(`${path}.metadata[${i}]`, m, { href: STRING, text: STRING });
  // What the examples show of a result: its title, description and url.
  s.members(`${path}.fields`, doc.fields, { id: STRING, title: STRING, description: STRING, url: STRING });
  const sample = SAMPLE_DOCS.find((d) => d.id === doc.fields.id);
  if (!sample) return;
  const texts = (doc.metadata as any[]).map((m) => m?.text);
  s.check(
    `${path}.metadata: the text ${sample.type} (its type) expected, got ${show(texts)}`,
    texts.includes(sample.type),
  );
  s.check(
    `${path}.metadata: a link filtering type:${sample.type} expected`,
    (doc.metadata as any[]).some((m) =>
      decodeURIComponent(String(m?.href).replace(/\+/g, ' ')).includes(`type:${sample.type}`),
    ),
  );
  s.equal(`${path}.source`, doc.source, sample.url);
}

function queryContextShape(s: Shape, qc: any, site: string): void {
  const ints = Object.fromEntries(
    ['count', 'limit', 'offset', 'page', 'pageCount', 'pageEnd', 'pageStart', 'responseTime'].map((m) => [m, NUMBER]),
  );
  if (
    !s.members('queryContext', qc, {
      ...ints,
      index: STRING,
      query: OBJECT,
      defaultFields: OBJECT,
      facetType: STRING,
      facetItemType: STRING,
    })
  )
    return;
  s.equal('queryContext.index', qc.index, site);
  s.equal('queryContext.offset', qc.offset, 0);
  s.members('queryContext.query', qc.query, { queryString: STRING, sort: STRING, locale: STRING });
  s.members(
    'queryContext.defaultFields',
    qc.defaultFields,
    Object.fromEntries(['title', 'date', 'description', 'text', 'image', 'url'].map((m) => [m, TEXT])),
  );
}

function facetGroupShape(s: Shape, path: string, group: any): void {
  if (
    !s.members(path, group, {
      facets: ARRAY,
      label: OBJECT,
      name: STRING,
      description: TEXT,
      type: STRING,
      multiValued: BOOL,
      cleanUpLink: STRING,
      selectedFilterQueries: ARRAY,
    })
  )
    return;
  s.members(`${path}.label`, group.label, { lang: STRING, text: STRING });
  (group.facets as any[]).forEach((item, i) => {
    s.members(`${path}.facets[${i}]`, item, {
      count: NUMBER,
      link: STRING,
      label: STRING,
      filterQuery: STRING,
      selected: BOOL,
    });
  });
}

function widgetShape(s: Shape, w: any): void {
  if (
    !s.members('widget', w, {
      cleanUpFacets: STRING,
      selectedFilterQueries: ARRAY,
      facet: ARRAY,
      secondaryFacet: ARRAY,
      facetToRemove: OBJECT,
      similar: ARRAY,
      spellCheck: OBJECT,
      locales: ARRAY,
      spotlights: ARRAY,
    })
  )
    return;
  for (const [i, g] of (w.facet as any[]).entries()) facetGroupShape(s, `widget.facet[${i}]`, g);
  if (
    s.members('widget.spellCheck', w.spellCheck, {
      correctedText: BOOL,
      usingCorrectedText: BOOL,
      original: OBJECT,
      corrected: OBJECT,
    })
  ) {
    s.members('widget.spellCheck.original', w.spellCheck.original, { text: STRING, link: STRING });
    s.members('widget.spellCheck.corrected', w.spellCheck.corrected, { text: STRING, link: STRING });
  }
  for (const [i, l] of (w.locales as any[]).entries())
    s.members(`widget.locales[${i}]`, l, { locale: STRING, link: STRING });
  for (const [i, l] of (w.spotlights as any[]).entries())
    s.members(`widget.spotlights[${i}]`, l, {
      id: STRING,
      position: NUMBER,
      title: TEXT,
      type: TEXT,
      referenceId: TEXT,
      content: TEXT,
      link: TEXT,
    });
}

const corpusOf = (locale?: string) => SAMPLE_DOCS.filter((d) => d.locale === (locale === 'pt_BR' ? 'pt_BR' : 'en_US'));
const byDate = (a: SampleDoc, b: SampleDoc) => a.publication_date.localeCompare(b.publication_date);
const idsOf = (docs: any[]) => docs.map((d) => d?.fields?.id);

async function checkSearch(t: ExecutionContext, setup: Setup, call: SdkCall, answer: any): Promise<string[]> {
  const s = new Shape();
  const { expect } = call;
  const site = call.call.site;
  if (!s.is('answer', answer, 'object')) return s.problems;
  queryContextShape(s, answer.queryContext, site);
  widgetShape(s, answer.widget);
  const found = corpusOf(expect.locale).filter(expect.finds ?? (() => true));
  const qc = answer.queryContext ?? {};
  s.equal('queryContext.count', qc.count, found.length);
  if (found.length > 0)
    s.check("widget.facet: the site's facets expected, got none", (answer.widget?.facet ?? []).length > 0);
  if (expect.locale) s.equal('queryContext.query.locale', qc.query?.locale, expect.locale);
  if (expect.page) s.equal('queryContext.page', qc.page, expect.page);
  if (expect.warns)
    s.check(
      `queryContext.warnings: a list naming what the site lacks expected, got ${show(qc.warnings)}`,
      Array.isArray(qc.warnings) && qc.warnings.length > 0,
    );
  if (expect.notCorrected)
    s.equal('widget.spellCheck.usingCorrectedText', answer.widget?.spellCheck?.usingCorrectedText, false);
  if (expect.spotlight)
    s.check(
      `widget.spotlights: the spotlight document "${SAMPLE_SPOTLIGHT.documents[0]!.title}" expected, got ${show(answer.widget?.spotlights)}`,
      (answer.widget?.spotlights ?? []).some(
        (d: any) => d?.title === SAMPLE_SPOTLIGHT.documents[0]!.title && d?.position === 1,
      ),
    );
  if (expect.answer === 'groups') {
    checkGroups(s, answer, found, call);
    return s.problems;
  }
  paginationShape(s, 'pagination', answer.pagination, site);
  const current = (answer.pagination ?? []).filter((item: any) => item?.type === 'CURRENT');
  if (found.length > 0 && qc.page <= qc.pageCount)
    s.equal(
      "pagination: the CURRENT item's page",
      current.map((item: any) => item.page),
      [qc.page],
    );
  if (!s.members('results', answer.results, { document: ARRAY })) return s.problems;
  const docs = answer.results.document as any[];
  for (const [i, d] of docs.entries()) documentShape(s, `results.document[${i}]`, d);
  const foundIds = new Set(found.map((d) => d.id));
  const strays = idsOf(docs).filter((id) => !foundIds.has(id));
  s.check(`results.document: only documents the search finds expected, got also ${show(strays)}`, strays.length === 0);
  if (expect.pageSize !== undefined)
    s.equal('results.document.length', docs.length, Math.min(expect.pageSize, found.length));
  if (expect.order) {
    const sorted = [...found].sort(expect.order === 'oldest' ? byDate : (a, b) => byDate(b, a));
    const offset = ((expect.page ?? 1) - 1) * (qc.limit ?? 0);
    s.equal(
      `results by ${expect.order}`,
      idsOf(docs),
      sorted.slice(offset, offset + docs.length).map((d) => d.id),
    );
  }
  if (expect.sameAs) {
    const other = await send(setup, call, expect.sameAs);
    t.is(other.status, 200, `${expect.sameAs}: ${show(other.body)}`);
    s.equal(`results as ${expect.sameAs}`, idsOf(docs), idsOf(other.body?.results?.document ?? []));
  }
  return s.problems;
}

function checkGroups(s: Shape, answer: any, found: SampleDoc[], call: SdkCall): void {
  const field = call.expect.groupedBy!;
  s.equal('pagination (none in group mode)', answer.pagination, undefined);
  s.equal('results (none in group mode)', answer.results, undefined);
  if (!s.is('groups', answer.groups, 'array')) return;
  const values = [...new Set(found.map((d) => d[field] as string))].sort();
  s.equal('groups[].name', (answer.groups as any[]).map((g) => g?.name).sort(), values);
  (answer.groups as any[]).forEach((g, i) => {
    const ints = Object.fromEntries(
      ['count', 'page', 'pageCount', 'pageEnd', 'pageStart', 'limit'].map((m) => [m, NUMBER]),
    );
    if (!s.members(`groups[${i}]`, g, { name: STRING, ...ints, results: OBJECT, pagination: ARRAY })) return;
    s.equal(`groups[${i}].count`, g.count, found.filter((d) => d[field] === g.name).length);
    if (!s.members(`groups[${i}].results`, g.results, { document: ARRAY })) return;
    (g.results.document as any[]).forEach((d, j) => {
      documentShape(s, `groups[${i}].results.document[${j}]`, d);
      s.equal(`groups[${i}].results.document[${j}].fields.${field}`, d?.fields?.[field], g.name);
    });
  });
}

function checkList(call: SdkCall, answer: unknown): string[] {
  const s = new Shape();
  if (!s.is('answer', answer, 'array')) return s.problems;
  for (const [i, v] of (answer as unknown[]).entries()) s.is(`answer[${i}]`, v, 'string');
  const titles = corpusOf()
    .filter(call.expect.finds!)
    .map((d) => d.title);
  s.equal('the titles of the documents found', [...(answer as string[])].sort(), titles.sort());
  return s.problems;
}

function checkLocales(call: SdkCall, answer: unknown): string[] {
  const s = new Shape();
  if (!s.is('answer', answer, 'array')) return s.problems;
  (answer as any[]).forEach((l, i) => {
    if (s.members(`answer[${i}]`, l, { locale: STRING, link: STRING }))
      s.check(
        `answer[${i}].link: a link to /api/sn/${call.call.site}/search, got ${l.link}`,
        String(l.link).startsWith(`/api/sn/${call.call.site}/search`),
      );
  });
  s.equal(
    'locales',
    (answer as any[]).map((l) => l?.locale),
    call.expect.locales,
  );
  return s.problems;
}

async function checkLatest(setup: Setup, call: SdkCall, first: JsonAnswer): Promise<string[]> {
  const s = new Shape();
  let answer = first;
  const { includes = [], excludes = [] } = call.expect;
  // Searches are recorded off the request path: a term may take a moment to be listed.
  if (includes.length > 0 && first.status === 200 && Array.isArray(first.body))
    await eventually(
      async () => {
        answer = await send(setup, call);
        return answer.status !== 200 || includes.every((term) => answer.body.includes(term));
      },
      `${includes.join(', ')} listed`,
    ).catch(() => {});
  if (!s.is('answer', answer.body, 'array')) return s.problems;
  for (const [i, v] of (answer.body as unknown[]).entries()) s.is(`answer[${i}]`, v, 'string');
  for (const term of includes) s.check(`"${term}" expected among ${show(answer.body)}`, answer.body.includes(term));
  for (const term of excludes)
    s.check(`"${term}" not expected among ${show(answer.body)}`, !answer.body.includes(term));
  return s.problems;
}

function checkChat(call: SdkCall, answer: any): string[] {
  const s = new Shape();
  if (!s.members('answer', answer, { enabled: BOOL, text: TEXT })) return s.problems;
  const { chatEnabled } = call.expect;
  if (chatEnabled !== undefined) s.equal('answer.enabled', answer.enabled, chatEnabled);
  if (chatEnabled === false) s.equal('answer.text', answer.text, null);
  if (answer.enabled) s.is('answer.text (the answer of a site that chats)', answer.text, 'string');
  return s.problems;
}

/** A call the original refuses: Vela refuses it too, with its error body. */
function checkRefusal(call: SdkCall, answer: JsonAnswer): string[] {
  const s = new Shape();
  s.equal('status', answer.status, call.expect.status);
  s.members('answer', answer.body, { error: STRING, message: STRING });
  return s.problems;
}

async function sendAndCheck(t: ExecutionContext, setup: Setup, call: SdkCall): Promise<void> {
  const answer = await send(setup, call);
  const problems =
    (call.expect.status ?? 200) !== 200
      ? checkRefusal(call, answer)
      : answer.status !== 200
        ? [`status 200 expected, got ${answer.status} ${show(answer.body)}`]
        : call.expect.answer === 'search' || call.expect.answer === 'groups'
          ? await checkSearch(t, setup, call, answer.body)
          : call.expect.answer === 'list'
            ? checkList(call, answer.body)
            : call.expect.answer === 'locales'
              ? checkLocales(call, answer.body)
              : call.expect.answer === 'latest'
                ? await checkLatest(setup, call, answer)
                : checkChat(call, answer.body);
  t.deepEqual(problems, [], `${call.wire} (${call.source})`);
}

test('the request lines of the table are what the SDK builds', (t) => {
  for (const call of SDK_CALLS) {
    const request = sdkRequest(call.call);
    t.is(`${request.method} ${request.path}`, call.wire, call.name);
  }
  // As the SDK was seen sending it (every parameter at once), against a loopback server.
  const all = sdkRequest({
    method: 'search',
    site: 'Sample',
    params: {
      q: 'foo bar',
      currentPage: 2,
      filterQueriesDefault: ['type:News'],
      filterQueriesAnd: ['x:1'],
      fqOperator: 'OR',
      fqItemOperator: 'AND',
      sort: 'newest',
      rows: 5,
      group: 'type',
      autoCorrectionDisabled: 0,
      localeRequest: 'en_US',
    },
  });
  t.is(
    all.path,
    '/api/sn/Sample/search?q=foo+bar&p=2&fq%5B%5D=type:News&fqAnd%5B%5D=x:1&fqOperator=OR&fqItemOperator=AND&sort=newest&rows=5&group=type&autoCorrectionDisabled=0&_setlocale=en_US',
  );
  t.true(SDK_CALLS.length >= 55, 'every call of the examples is in the table');
});

const databases = [
  ['SQLite', () => setups.sqlite!],
  ['PostgreSQL', () => setups.postgres!],
] as const;

for (const [database, setup] of databases) {
  const declare = database === 'PostgreSQL' && !withPostgres ? test.serial.skip : test.serial;
  declare(`${database}: a site takes the original's document metadata form`, async (t) => {
    t.deepEqual(
      (await setup()).metadataForm,
      SAMPLE_SITES.map(() => 200),
    );
  });
  for (const call of SDK_CALLS)
    declare(`${database}: ${call.name} (${call.source})`, async (t) => sendAndCheck(t, await setup(), call));
}

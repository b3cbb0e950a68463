import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs } from './fixtures.js';

// What clients written against the original send: its parameter spellings and forms must keep working.
let vela: TestRuntime;
const docs = makeDocs(30);

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search', 'graphql'] });
  await createSite(vela, 'Sample', { rowsPerPage: 4 });
  await createSite(vela, 'Solo', { locales: ['en_US'] });
  await createSite(vela, 'Both', { locales: ['en_US', 'pt_BR'], defaultLocale: 'pt_BR' });
  await importDocs(vela, docs);
  await importDocs(vela, docs.slice(0, 5), 'Solo');
  await importDocs(vela, docs.slice(0, 3), 'Both', 'pt_BR');
});
test.after.always(() => vela?.stop());

const get = (path: string) => json(vela, 'GET', path, undefined, { authorization: '' });
const postSearch = (path: string, body: unknown) => json(vela, 'POST', path, body, { authorization: '' });
const idsOf = (r: any) => r.body.results.document.map((d: any) => d.fields.id);

test('sort written field desc, field:desc or field,desc', async (t) => {
  const expected = [...docs].sort((a, b) => b.size - a.size).map((d) => d.id);
  for (const sort of ['size:desc', 'size%20desc', 'size+desc', 'size,desc', 'size:DESC', 'size%20,%20desc']) {
    const r = await get(`/api/sn/Sample/search?q=*&_setlocale=en_US&rows=30&sort=${sort}`);
    t.is(r.status, 200, sort);
    t.deepEqual(idsOf(r), expected, sort);
  }
  const post = await postSearch('/api/sn/Sample/search', { query: '*', locale: 'en_US', rows: 3, sort: 'size asc' });
  t.deepEqual(
    idsOf(post),
    [...docs]
      .sort((a, b) => a.size - b.size)
      .slice(0, 3)
      .map((d) => d.id),
  );
});

test('sort values as the original reads them: field:<not asc> descending, anything else relevance', async (t) => {
  const descending = [...docs].sort((a, b) => b.size - a.size).map((d) => d.id);
  const relevance = idsOf(await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=30'));
  for (const [sort, expected] of [
    ['size:up', descending],
    ['size:', descending],
    ['title', relevance],
    ['size%20up', relevance],
    ['', relevance],
    ['%20', relevance],
  ] as const) {
    const r = await get(`/api/sn/Sample/search?q=*&_setlocale=en_US&rows=30&sort=${sort}`);
    t.is(r.status, 200, sort);
    t.deepEqual(idsOf(r), expected, sort);
  }
  t.is(
    (await get('/api/sn/Sample/search?q=*&_setlocale=en_US&sort=size:up')).body.queryContext.query.sort,
    'size:up',
    'echoed as given',
  );
  t.is((await get('/api/sn/Sample/search?q=*&_setlocale=en_US&sort=')).body.queryContext.query.sort, 'relevance');
  const post = await postSearch('/api/sn/Sample/search?sort=size:asc', {
    query: '*',
    locale: 'en_US',
    rows: 30,
    sort: '',
  });
  t.is(post.status, 200);
  t.deepEqual(idsOf(post), relevance, 'an empty body sort overrides the query string with relevance');
  // A sort the site cannot use: relevance, as the original answers it, and a warning naming it.
  const noField = await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=30&sort=:desc');
  t.is(noField.status, 200);
  t.deepEqual(idsOf(noField), relevance);
  t.regex(noField.body.queryContext.warnings[0].message, /^":desc" names no field before the colon/);
  const unknown = await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=30&sort=nosuch:asc');
  t.is(unknown.status, 200);
  t.deepEqual(idsOf(unknown), relevance);
  t.like(unknown.body.queryContext.warnings[0], { code: 'sort_ignored', parameter: 'sort' });
});

test("the body's fqOperator and fqItemOperator: AND and OR are honoured, other values ignored as the original ignores them", async (t) => {
  const body = (extra: Record<string, unknown>) =>
    postSearch('/api/sn/Sample/search', {
      query: '*',
      locale: 'en_US',
      rows: 0,
      fq: ['section:editors', 'arch:all'],
      ...extra,
    });
  const and = docs.filter((d) => d.section === 'editors' && d.arch === 'all').length;
  const or = docs.filter((d) => d.section === 'editors' || d.arch === 'all').length;
  for (const [extra, count] of [
    [{ fqOperator: 'XOR', fqItemOperator: 'MAYBE' }, and],
    [{ fqOperator: 'or' }, or],
    [{ fqOperator: 'NONE' }, and],
  ] as const) {
    const r = await body(extra);
    t.is(r.status, 200, JSON.stringify(extra));
    t.is(r.body.queryContext.count, count, JSON.stringify(extra));
  }
  const queryOr = await postSearch('/api/sn/Sample/search?fq.op=OR', {
    query: '*',
    locale: 'en_US',
    rows: 0,
    fq: ['section:editors', 'arch:all'],
    fqOperator: 'XOR',
  });
  t.is(queryOr.body.queryContext.count, or, "an ignored body value leaves the query string's operator in force");
});

test('rows 0: counts and widgets only; rows below 0: the site default', async (t) => {
  const zero = await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=0');
  t.is(zero.status, 200);
  t.deepEqual(zero.body.results.document, []);
  t.deepEqual(zero.body.pagination, []);
  t.like(zero.body.queryContext, { count: 30, limit: 0, pageCount: 0, pageStart: 0, pageEnd: 0 });
  t.true(zero.body.widget.facet.length > 0, 'facets are counted');
  const negative = await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=-1');
  t.is(negative.status, 200);
  t.is(negative.body.queryContext.limit, 4);
  t.is(negative.body.results.document.length, 4);
  const post = await postSearch('/api/sn/Sample/search', { query: '*', locale: 'en_US', rows: -5 });
  t.is(post.body.queryContext.limit, 4);
  const postZero = await postSearch('/api/sn/Sample/search', { query: '*', locale: 'en_US', rows: 0 });
  t.is(postZero.body.results.document.length, 0);
  const groups = await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=0&group=section');
  t.true(groups.body.groups.every((g: any) => g.results.document.length === 0 && g.count > 0));
});

test('body members the original ignores are ignored', async (t) => {
  const r = await json(
    vela,
    'POST',
    '/api/sn/Sample/search',
    {
      query: '*',
      locale: 'en_US',
      rows: 1,
      turSNSite: { id: 'x' },
      currentPage: 2,
      autoCorrectionDisabled: 0,
      localeRequest: 'en_US',
      foo: [1, { b: 2 }],
    },
    { authorization: '' },
  );
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.queryContext.count, 30);
  const wrong = await postSearch('/api/sn/Sample/search', { query: '*', locale: 'en_US', rows: 'ten', page: 0.5 });
  t.is(wrong.status, 400);
  t.regex(
    wrong.body.message,
    /body\.page must be of type integer or null, got 0\.5; body\.rows must be of type integer or null/,
  );
});

test('_setlocale may be left out with one locale or a defaultLocale; otherwise a 400 listing the locales', async (t) => {
  const solo = await get('/api/sn/Solo/search?q=*');
  t.is(solo.status, 200);
  t.is(solo.body.queryContext.query.locale, 'en_US');
  t.is(solo.body.queryContext.count, 5);
  t.is(solo.body.widget.locales[0].link, '/api/sn/Solo/search?q=*&_setlocale=en_US');
  const both = await get('/api/sn/Both/search?q=*');
  t.is(both.body.queryContext.query.locale, 'pt_BR');
  t.is(both.body.queryContext.count, 3);
  const post = await json(vela, 'POST', '/api/sn/Solo/search', { query: '*' }, { authorization: '' });
  t.is(post.body.queryContext.count, 5);
  t.is(post.body.pagination[0].href, '/api/sn/Solo/search?q=*&p=1');
  const graphql = await postSearch('/graphql', {
    query: '{ siteSearch(siteName: "Solo") { queryContext { count query { locale } } } }',
  });
  t.deepEqual(graphql.body, { data: { siteSearch: { queryContext: { count: 5, query: { locale: 'en_US' } } } } });
  const several = await get('/api/sn/Sample/search?q=*');
  t.is(several.status, 400);
  t.deepEqual(several.body, {
    error: 'missing_parameter',
    message:
      '_setlocale is required: site "Sample" has several locales (en_US, pt_BR) and no defaultLocale; give one, e.g. _setlocale=en_US',
  });
});

test('bad values the original refuses stay 400, naming the member', async (t) => {
  for (const [query, name] of [
    ['q=*&_setlocale=en_US&p=x', /^p must be/],
    ['q=*&_setlocale=en_US&rows=ten', /^rows must be a whole number/],
    [
      'q=*&_setlocale=en_US&p=99999999999999999999',
      /^p must be a whole number from 1 to 2147483647, got "99999999999999999999"/,
    ],
    ['q=*&_setlocale=en_US&p=2147483648', /^p must be a whole number from 1 to 2147483647/],
    ['q=*&_setlocale=en_US&p=1e20', /^p must be a whole number from 1 to 2147483647, got "1e20"/],
    ['q=*&_setlocale=en_US&rows=1e20', /^rows must be a whole number, got "1e20"/],
    [
      'q=*&_setlocale=en_US&fq.op=XOR',
      /^fq\.op must be AND, OR, NONE or DEFAULT \(NONE, DEFAULT and empty leave it to the field, else the site\), got "XOR"/,
    ],
    ['q=*&_setlocale=en_US&fqOp=XOR', /^fqOp must be AND, OR, NONE or DEFAULT/],
    ['q=*&_setlocale=en_US&fqi.op=both', /^fqi\.op must be AND, OR, NONE or DEFAULT/],
  ] as const) {
    const r = await get(`/api/sn/Sample/search?${query}`);
    t.is(r.status, 400, query);
    t.regex(r.body.message, name, query);
  }
  for (const query of [
    'q=*&_setlocale=en_US&fq.op=NONE',
    'q=*&_setlocale=en_US&fqi.op=',
    'q=*&_setlocale=en_US&p=2147483647',
  ]) {
    t.is((await get(`/api/sn/Sample/search?${query}`)).status, 200, query);
  }
  const bigPage = await postSearch('/api/sn/Sample/search', { query: '*', locale: 'en_US', page: 1e20 });
  t.is(bigPage.status, 400);
  t.regex(bigPage.body.message, /^body\.page must be at most 2147483647/);
});

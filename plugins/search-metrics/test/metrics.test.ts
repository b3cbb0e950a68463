import test from 'ava';
import type { Database, Logger } from 'vela/plugin';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs } from '../../search/test/fixtures.js';
import { MetricsRecorder, type SearchRecord } from '../metrics/metrics-recorder.js';
import { periodSpans } from '../metrics/periods.js';
import { sanitizeTerm } from '../metrics/search-term.js';

let vela: TestRuntime;
let searchKey: string;
let importKey: string;

test.before(async () => {
  vela = await startTestRuntime({
    plugins: ['search', 'search-metrics'],
    config: { plugins: { 'search-metrics': { flushMs: 50 } } },
  });
  await createSite(vela, 'Sample');
  await createSite(vela, 'Other');
  await importDocs(vela, makeDocs(40));
  searchKey = (await json(vela, 'POST', '/api/dev/token', { title: 'reader', scopes: ['search'] })).body.token;
  importKey = (await json(vela, 'POST', '/api/dev/token', { title: 'importer', scopes: ['import'] })).body.token;
});
test.after.always(async () => {
  await vela?.stop();
});

const anonymous = { authorization: '' };
const postSearch = (site: string, body: Record<string, unknown>, query = '_setlocale=en_US') =>
  json(vela, 'POST', `/api/sn/${site}/search?${query}`, body, anonymous);
const latest = (
  site: string,
  body: unknown,
  query = '_setlocale=en_US',
  headers: Record<string, string> = { key: searchKey, authorization: '' },
) => json(vela, 'POST', `/api/sn/${site}/search/latest?${query}`, body, headers);

test.serial("latest searches: the user's distinct terms, newest first, five by default", async (t) => {
  for (const q of ['editor', 'browser', 'Éditor ', 'server', 'python', 'audio', 'terminal', 'graphics']) {
    t.is((await postSearch('Sample', { userId: 'ana', query: q })).status, 200, q);
  }
  // Not recorded: match-all, populateMetrics false, another user, a GET (no user), another locale, another site.
  await postSearch('Sample', { userId: 'ana', query: '*' });
  await postSearch('Sample', { userId: 'ana', query: 'database', populateMetrics: false });
  await postSearch('Sample', { userId: 'bob', query: 'font' });
  await json(vela, 'GET', '/api/sn/Sample/search?q=network&_setlocale=en_US', undefined, anonymous);
  await postSearch('Sample', { userId: 'ana', query: 'library' }, '_setlocale=pt_BR');
  await postSearch('Other', { userId: 'ana', query: 'tool' });

  const res = await latest('Sample', { userId: 'ana' });
  t.is(res.status, 200);
  t.deepEqual(res.body, ['graphics', 'terminal', 'audio', 'python', 'server']);
  t.deepEqual(
    (await latest('Sample', { userId: 'ana' }, '_setlocale=en_US&rows=8')).body,
    ['graphics', 'terminal', 'audio', 'python', 'server', 'editor', 'browser'],
    '"Éditor " and "editor" are one term, at its latest place',
  );
  t.deepEqual((await latest('Sample', { userId: 'ana' }, '_setlocale=pt_BR')).body, ['library']);
  t.deepEqual((await latest('Other', { userId: 'ana' })).body, ['tool']);
  t.deepEqual((await latest('Sample', { userId: 'bob' })).body, ['font']);
  t.deepEqual((await latest('Sample', { userId: 'nobody' })).body, []);
  t.deepEqual(
    (await latest('Sample', { userId: 'ana' }, '_setlocale=en_US&rows=10&q=ed')).body,
    ['editor'],
    'q keeps the terms starting with it',
  );
  t.deepEqual(
    (await latest('Sample', { userId: 'ana' }, 'locale=en-US&rows=1')).body,
    ['graphics'],
    'the SDK sends locale, in BCP 47',
  );
});

test.serial('a search seen again moves to the front', async (t) => {
  await postSearch('Sample', { userId: 'carla', query: 'editor' });
  await postSearch('Sample', { userId: 'carla', query: 'audio' });
  await postSearch('Sample', { userId: 'carla', query: 'EDITOR' });
  t.deepEqual((await latest('Sample', { userId: 'carla' })).body, ['editor', 'audio']);
});

test.serial('latest searches need a search token or the administrator, and the locale', async (t) => {
  for (const body of [{ userId: 'bob' }, {}]) {
    const anyone = await latest('Sample', body, '_setlocale=en_US', anonymous);
    t.is(anyone.status, 401, 'a caller the service does not know, whatever user it names');
    t.is(anyone.body.error, 'unauthorized');
  }
  const refused = await latest('Sample', { userId: 'ana' }, '_setlocale=en_US', { key: importKey, authorization: '' });
  t.is(refused.status, 403);
  t.is(refused.body.error, 'insufficient_scope');
  t.is(
    (await json(vela, 'POST', '/api/sn/Sample/search/latest?_setlocale=en_US', { userId: 'ana' })).status,
    200,
    'the administrator',
  );
  const noLocale = await latest('Sample', { userId: 'ana' }, 'rows=2');
  t.is(noLocale.status, 400);
  t.regex(noLocale.body.message, /_setlocale is required/);
  for (const [site, query] of [
    ['Nowhere', '_setlocale=en_US'],
    ['Sample', '_setlocale=de_DE'],
  ]) {
    const none = await latest(site!, { userId: 'ana' }, query);
    t.deepEqual([none.status, none.body], [200, []], `${site} ${query}: nothing searched there, as the original`);
  }
  t.is((await latest('Sample', { userId: 42 })).status, 400);
  for (const [body, expected] of [
    [[1], { error: 'validation_failed', message: 'body must be of type object, got [1]' }],
    [['ana'], { error: 'validation_failed', message: 'body must be of type object, got ["ana"]' }],
    [
      { userId: 'x'.repeat(101) },
      {
        error: 'validation_failed',
        message: `body.userId must be at most 100 characters long, got "${'x'.repeat(76)}...`,
      },
    ],
    // The route takes no body at all too, so the JSON parser (strict: objects and arrays) meets a string first.
    ['ana', { error: 'invalid_json', message: 'request body must be a JSON object or array, got "ana"' }],
  ] as const) {
    const r = await latest('Sample', body);
    t.is(r.status, 400, JSON.stringify(body));
    t.deepEqual(r.body, expected);
  }
  const control = await latest('Sample', { userId: 'a\u0001b' });
  t.deepEqual(control.body, {
    error: 'validation_failed',
    message: 'body.userId must not contain control characters, found U+0001 at position 2',
  });
  t.is((await latest('Sample', { userId: 'ana' }, '_setlocale=en_US&rows=0')).status, 400);
  // Without a userId, the user behind the credentials: the administrator searched nothing with a userId "admin".
  await postSearch('Sample', { userId: 'admin', query: 'mine' });
  t.deepEqual((await json(vela, 'POST', '/api/sn/Sample/search/latest?_setlocale=en_US', {})).body, ['mine']);
  t.deepEqual(
    (await json(vela, 'POST', '/api/sn/Sample/search/latest?_setlocale=en_US')).body,
    ['mine'],
    'no body at all',
  );
});

test.serial(
  'top terms count every REST search with its average hits; zero-result terms list those that found nothing',
  async (t) => {
    await createSite(vela, 'Counted');
    await importDocs(vela, makeDocs(30), 'Counted');
    const get = (q: string) =>
      json(vela, 'GET', `/api/sn/Counted/search?q=${encodeURIComponent(q)}&_setlocale=en_US`, undefined, anonymous);
    const hits: Record<string, number> = {};
    // The second editor and zzqx are answered from the search service's answer cache: counted like any search.
    for (const q of ['editor', 'editor', 'Editor', 'audio', 'audio', 'zzqx', 'zzqx', 'nothinghere'])
      hits[q] = (await get(q)).body.queryContext.count;
    t.is(hits.zzqx, 0);
    await json(vela, 'POST', '/api/sn/Counted/search?_setlocale=en_US', { query: 'audio', userId: 'u' }, anonymous);

    const top = await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/today/10', undefined, {
      key: searchKey,
      authorization: '',
    });
    t.is(top.status, 200);
    t.is(top.body.site, 'Counted');
    t.is(top.body.period, 'today');
    t.is(top.body.searches, 9);
    t.is(top.body.previousPeriodSearches, 0);
    t.deepEqual(
      top.body.terms.map((term: { term: string; count: number; averageHits: number }) => [
        term.term,
        term.count,
        term.averageHits,
      ]),
      [
        ['audio', 3, hits.audio],
        ['editor', 3, hits.editor],
        ['zzqx', 2, 0],
        ['nothinghere', 1, 0],
      ],
    );
    t.deepEqual(
      (await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/all-time/2')).body.terms.map(
        (term: { term: string }) => term.term,
      ),
      ['audio', 'editor'],
    );
    const zero = await json(vela, 'GET', '/api/sn/Counted/metrics/zero-result-terms/this-month/10');
    t.is(zero.status, 200);
    t.is(zero.body.searches, 3);
    t.deepEqual(
      zero.body.terms.map((term: { term: string; count: number }) => [term.term, term.count]),
      [
        ['zzqx', 2],
        ['nothinghere', 1],
      ],
    );
    t.is((await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/yesterday/10')).status, 400);
    t.is((await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/today/0')).status, 400);
    t.is((await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/today/10', undefined, anonymous)).status, 401);
    t.is((await json(vela, 'GET', '/api/sn/Nowhere/metrics/top-terms/today/10')).status, 404);

    const live = await json(vela, 'GET', '/api/sn/Counted/metrics/live?rows=3');
    t.is(live.status, 200);
    t.is(live.body.searchesLastMinute, 9);
    t.is(live.body.searchesToday, 9);
    t.is(live.body.zeroResultsToday, 3);
    t.deepEqual(
      live.body.latest.map((s: { term: string; userId: string | null }) => [s.term, s.userId]),
      [
        ['audio', 'u'],
        ['nothinghere', null],
        ['zzqx', null],
      ],
    );
    t.like(live.body.recorder, { queued: 0, dropped: 0, failed: 0 });
  },
);

test.serial('periods: rows older than the period are left out, and the previous period is counted', async (t) => {
  const site = (await json(vela, 'GET', '/api/sn/Counted')).body;
  const db = vela.runtime.resolve<Database>('db');
  const { current, previous } = periodSpans('this-week', Date.now());
  const row = (term: string, at: number) => ({
    site_id: site.id,
    locale: 'en_US',
    term,
    sanitized_term: term,
    user_id: null,
    num_found: 1,
    searched_at: at,
  });
  await db('search_metrics_searches').insert([
    row('lastweek', previous!.from! + 1000),
    row('lastweek', previous!.from! + 2000),
    row('ancient', 1000),
  ]);
  const week = (await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/this-week/50')).body;
  t.false(week.terms.some((term: { term: string }) => term.term === 'lastweek' || term.term === 'ancient'));
  t.true(week.previousPeriodSearches >= 2);
  t.is(week.from, new Date(current.from!).toISOString());
  const all = (await json(vela, 'GET', '/api/sn/Counted/metrics/top-terms/all-time/50')).body;
  t.true(all.terms.some((term: { term: string }) => term.term === 'ancient'));
  t.is(all.previousPeriodSearches, null);
  t.is(all.from, null);
});

test.serial('deleting a site deletes its metrics', async (t) => {
  const site = (await json(vela, 'GET', '/api/sn/Counted')).body;
  t.is((await json(vela, 'DELETE', '/api/sn/Counted')).status, 200);
  const db = vela.runtime.resolve<Database>('db');
  t.is((await db('search_metrics_searches').where({ site_id: site.id })).length, 0);
});

test('periods start at midnight, Monday and the 1st, in UTC', (t) => {
  const wednesday = Date.UTC(2026, 2, 11, 15, 30); // Wed 11 March 2026
  t.deepEqual(periodSpans('today', wednesday), {
    current: { from: Date.UTC(2026, 2, 11), to: null },
    previous: { from: Date.UTC(2026, 2, 10), to: Date.UTC(2026, 2, 11) },
  });
  t.deepEqual(periodSpans('this-week', wednesday).current.from, Date.UTC(2026, 2, 9));
  t.deepEqual(
    periodSpans('this-week', Date.UTC(2026, 2, 15, 23)).current.from,
    Date.UTC(2026, 2, 9),
    'Sunday is the end of the week',
  );
  t.deepEqual(periodSpans('this-month', wednesday), {
    current: { from: Date.UTC(2026, 2, 1), to: null },
    previous: { from: Date.UTC(2026, 1, 1), to: Date.UTC(2026, 2, 1) },
  });
  t.deepEqual(periodSpans('this-month', Date.UTC(2026, 0, 5)).previous, {
    from: Date.UTC(2025, 11, 1),
    to: Date.UTC(2026, 0, 1),
  });
  t.deepEqual(periodSpans('all-time', wednesday), { current: { from: null, to: null }, previous: null });
});

test('terms are grouped without accents, case or extra spaces, in every script', (t) => {
  t.is(sanitizeTerm('  Ação   RÁPIDA '), 'acao rapida');
  t.is(sanitizeTerm('Москва'), 'москва');
  t.is(sanitizeTerm('東京'), '東京');
  t.is(sanitizeTerm('x'.repeat(300)).length, 200);
});

const silent = { warn() {}, info() {}, debug() {}, error() {} } as unknown as Logger;
const record = (term: string): SearchRecord => ({
  siteId: 's',
  locale: 'en_US',
  term,
  userId: null,
  numFound: 1,
  at: 0,
});

test('recording never waits for the database, and a full queue drops and counts', async (t) => {
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => {
    release = resolve;
  });
  const written: SearchRecord[][] = [];
  const recorder = new MetricsRecorder(
    async (records) => {
      written.push(records);
      await blocked;
    },
    { flushMs: 60_000, maxQueue: 3, batchSize: 2 },
    silent,
  );
  for (const term of ['a', 'b', 'c']) recorder.record(record(term));
  const flushed = recorder.flush();
  await new Promise(setImmediate);
  // The write is stuck; recording (synchronous, so it never waits for the write) goes on up to the bound, then drops.
  for (const term of ['d', 'e', 'f', 'g', 'h']) recorder.record(record(term));
  t.like(recorder.stats(), { queued: 3, dropped: 2, written: 0 });
  release();
  await flushed;
  await recorder.flush();
  t.deepEqual(
    written.map((batch) => batch.map((r) => r.term)),
    [['a', 'b'], ['c'], ['d', 'e'], ['f']],
    'batches of batchSize, in order',
  );
  t.like(recorder.stats(), { queued: 0, written: 6, dropped: 2, failed: 0 });
});

test('a failed write is counted and the recorder goes on', async (t) => {
  let fail = true;
  const recorder = new MetricsRecorder(
    async () => {
      if (fail) throw new Error('database away');
    },
    { flushMs: 60_000, maxQueue: 10, batchSize: 10 },
    silent,
  );
  recorder.record(record('a'));
  await recorder.flush();
  fail = false;
  recorder.record(record('b'));
  await recorder.stop();
  t.like(recorder.stats(), { written: 1, failed: 1, queued: 0 });
});

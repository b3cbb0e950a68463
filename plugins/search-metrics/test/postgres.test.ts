import test from 'ava';
import { postgresReachable, startTestRuntime, testDatabase } from 'vela/testing';
import { createSite, importDocs, json, makeDocs } from '../../search/test/fixtures.js';
import { searchAs } from './searching.js';

const pgTest = postgresReachable() ? test : test.skip;

pgTest('on PostgreSQL searches are recorded for latest searches and the metrics reports', async (t) => {
  const a = await startTestRuntime({
    plugins: ['search', 'search-metrics'],
    databaseUrl: (await testDatabase(t)).url,
    config: { plugins: { 'search-metrics': { flushMs: 50 } } },
  });
  t.teardown(() => a.stop());
  await createSite(a);
  const docs = makeDocs(30);
  await importDocs(a, docs);
  const post = (query: string, userId?: string) => searchAs(a, 'Sample', query, userId);
  const hits: Record<string, number> = {};
  for (const [q, user] of [
    ['editor', 'ana'],
    ['Editor ', 'ana'],
    ['audio', 'ana'],
    ['zzqx', 'ana'],
    ['audio', 'bob'],
    ['*', 'ana'],
  ] as const) {
    hits[q] = (await post(q, user)).body.queryContext.count;
  }
  const latest = (body: unknown, query = '_setlocale=en_US') =>
    json(a, 'POST', `/api/sn/Sample/search/latest?${query}`, body);
  t.deepEqual(
    (await latest({ userId: 'ana' })).body,
    ['zzqx', 'audio', 'editor'],
    'distinct, newest first, * left out',
  );
  t.deepEqual((await latest({ userId: 'ana' }, 'locale=en-US&rows=2&q=a')).body, ['audio']);
  t.deepEqual((await latest({ userId: 'bob' })).body, ['audio']);

  const top = await json(a, 'GET', '/api/sn/Sample/metrics/top-terms/today/10');
  t.is(top.status, 200);
  t.is(top.body.searches, 5);
  t.deepEqual(
    top.body.terms.map((term: any) => [term.term, term.count, term.averageHits]),
    [
      ['audio', 2, hits.audio],
      ['editor', 2, hits.editor],
      ['zzqx', 1, 0],
    ],
  );
  const zero = await json(a, 'GET', '/api/sn/Sample/metrics/zero-result-terms/all-time/10');
  t.deepEqual(
    zero.body.terms.map((term: any) => [term.term, term.count]),
    [['zzqx', 1]],
  );
  const live = await json(a, 'GET', '/api/sn/Sample/metrics/live?rows=2');
  t.like(live.body, { searchesLastMinute: 5, searchesToday: 5, zeroResultsToday: 1 });
  t.deepEqual(
    live.body.latest.map((s: any) => [s.term, s.userId]),
    [
      ['audio', 'bob'],
      ['zzqx', 'ana'],
    ],
  );
  t.like(live.body.recorder, { written: 5, dropped: 0, failed: 0 });
  // Deleting the site deletes its records.
  const { id } = (await json(a, 'GET', '/api/sn/Sample')).body;
  await json(a, 'DELETE', '/api/sn/Sample');
  t.is(Number((await a.runtime.db('search_metrics_searches').where({ site_id: id }).count({ n: '*' }))[0]!.n), 0);
});

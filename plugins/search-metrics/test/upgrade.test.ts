import test, { type ExecutionContext } from 'ava';
import { onBothDatabases, postgresClient, postgresIndexes, startTestRuntime, testFolder } from 'vela/testing';
import { listTables } from '../../../runtime/storage/database.js';
import { earlierSearchDatabase } from '../../search/test/earlier-search-database.js';
import { createSite, json } from '../../search/test/fixtures.js';
import { searchAs } from './searching.js';

// A database as an earlier search plugin left it, with recorded searches in its search_metric_searches table:
// the runtime with the search and search-metrics plugins starts on it, the reports count the searches recorded
// before, and new searches land in the same table, now the plugin's.

const SITE_ID = 'site-from-before';

/** The runtime started on the earlier layout, on SQLite or on the PostgreSQL database at `databaseUrl`. */
async function upgradeInPlace(t: ExecutionContext, databaseUrl?: string): Promise<void> {
  t.timeout(90_000);
  const dataDir = testFolder(t, 'search-metrics-upgrade');

  // The earlier layout: the search plugin's tables up to its migration 007, three searches of one site recorded.
  const db = await earlierSearchDatabase(dataDir, databaseUrl, {
    name: '007_search_metrics.ts',
    fixture: new URL('./fixtures/search-007-search-metrics.ts', import.meta.url),
  });
  const at = Date.now() - 60_000;
  const row = (term: string, numFound: number, userId: string | null) => ({
    site_id: SITE_ID,
    locale: 'en_US',
    term,
    sanitized_term: term.toLowerCase(),
    user_id: userId,
    num_found: numFound,
    searched_at: at,
  });
  await db('search_metric_searches').insert([row('Editor', 4, 'ana'), row('editor', 4, null), row('zzqx', 0, 'ana')]);
  await db.destroy();

  const vela = await startTestRuntime({
    plugins: ['search', 'search-metrics'],
    dataDir,
    databaseUrl,
    config: { plugins: { 'search-metrics': { flushMs: 50 } } },
  });
  t.teardown(() => vela.stop());
  await createSite(vela, 'Sample', { id: SITE_ID });

  const before = await json(vela, 'GET', '/api/sn/Sample/metrics/top-terms/all-time/10');
  t.is(before.status, 200, JSON.stringify(before.body));
  t.deepEqual(
    before.body.terms.map((term: { term: string; count: number }) => [term.term, term.count]),
    [
      ['editor', 2],
      ['zzqx', 1],
    ],
  );
  t.deepEqual((await json(vela, 'POST', '/api/sn/Sample/search/latest?_setlocale=en_US', { userId: 'ana' })).body, [
    'zzqx',
    'editor',
  ]);

  // A new search lands beside them (on PostgreSQL, its id from the renamed table's sequence).
  const searched = await searchAs(vela, 'Sample', 'audio', 'ana');
  t.is(searched.status, 200);
  const after = await json(vela, 'GET', '/api/sn/Sample/metrics/live?rows=5');
  t.deepEqual(
    after.body.latest.map((s: { term: string }) => s.term),
    ['audio', 'zzqx', 'editor', 'Editor'],
  );
  t.like(after.body.recorder, { written: 1, failed: 0 });

  // The table is the plugin's now.
  const tables = await listTables(vela.runtime.resolve('db') as never);
  t.true(tables.includes('search_metrics_searches'));
  t.false(tables.includes('search_metric_searches'));
  if (!databaseUrl) return;
  // The primary key, the indexes and the id's sequence follow the table's name.
  t.deepEqual(await postgresIndexes(databaseUrl, 'search_metrics_searches'), [
    'search_metrics_searches_pkey',
    'search_metrics_searches_site_time',
    'search_metrics_searches_user_time',
  ]);
  const catalog = postgresClient(t, databaseUrl);
  const sequences = await catalog('pg_class')
    .where({ relkind: 'S' })
    .where('relname', 'like', '%searches_id_seq')
    .pluck('relname');
  t.deepEqual(sequences, ['search_metrics_searches_id_seq']);
}

onBothDatabases(
  test,
  'the searches the search plugin recorded are counted by the search-metrics plugin, and new ones join them',
  upgradeInPlace,
);

import test, { type ExecutionContext } from 'ava';
import knex from 'knex';
import { createTestPostgres, eventually, postgresReachable, startTestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

// The search service over the PostgreSQL engine (`"engine": "postgres"`) answers like the memory engine, shares
// its index between processes and keeps it across restarts. The engine's own cases: test/engine/.
const pgTest = postgresReachable() ? test : test.skip;
const POSTGRES_ENGINE = { plugins: { search: { engine: 'postgres' as const, indexer: { pollMs: 150 } } } };

async function testDatabase(t: ExecutionContext): Promise<string> {
  const pg = await createTestPostgres();
  if (!pg) throw new Error('PostgreSQL refused to create a test database');
  t.teardown(() => pg.drop());
  return pg.url;
}

/** What a search answer says, without what may differ between engines (timings, relevance ties). */
function summary(body: any, ordered: boolean) {
  const ids = body.results.document.map((d: any) => d.fields.id);
  const groups = [...(body.widget.facet ?? []), ...(body.widget.secondaryFacet ?? [])];
  return {
    count: body.queryContext.count,
    ids: ordered ? ids : [...ids].sort(),
    facets: groups.map((g: any) => [g.name, g.facets.map((f: any) => [f.label, f.count])]),
  };
}

const QUERIES: Array<[string, boolean]> = [
  ['q=*&rows=1000', true],
  ['q=editor&rows=1000', false],
  ['q=browser%20library&rows=1000&fq[]=arch:all', false],
  ['q=python&rows=1000&fq[]=section:web&fq[]=section:libs&fq.op=OR', false],
  ['q=*&rows=7&p=3&sort=size:asc', true],
  ['q=package&rows=1000&sort=size:desc&fq[]=tags:interface::x11', true],
  ['q=*&rows=5&sort=newest&fq[]=tags:role::program&fq[]=tags:use::editing&fq.op=AND', true],
  ['q=pyth&rows=1000', false],
  ['q=nothingmatches&rows=10', true],
];

pgTest('the PostgreSQL engine answers searches, filters, facets and sorts as the memory engine does', async (t) => {
  t.timeout(120_000);
  const docs = makeDocs(300);
  const memory = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => memory.stop());
  const postgres = await startTestRuntime({ plugins: ['search'], databaseUrl: await testDatabase(t), config: POSTGRES_ENGINE });
  t.teardown(() => postgres.stop());
  for (const vela of [memory, postgres]) {
    await createSite(vela);
    t.is((await importDocs(vela, docs)).accepted, 300);
  }
  for (const [query, ordered] of QUERIES) {
    const [a, b] = await Promise.all([search(memory, `${query}&_setlocale=en_US`), search(postgres, `${query}&_setlocale=en_US`)]);
    t.is(b.status, 200, JSON.stringify(b.body));
    t.deepEqual(summary(b.body, ordered), summary(a.body, ordered), query);
  }
  // The prefix retry (wildcardNoResults) found "python" for "pyth" on both.
  t.true((await search(postgres, 'q=pyth&_setlocale=en_US')).body.queryContext.count > 0);
  // Autocomplete and spell check read the engine's term dictionary, refreshed shortly after writes.
  await eventually(async () => {
    const r = await json(postgres, 'GET', '/api/sn/Sample/ac?q=edi&_setlocale=en_US');
    return r.status === 200 && JSON.stringify(r.body).includes('editor');
  }, 'autocomplete completing from the PostgreSQL dictionary');
});

pgTest('processes on one database share the PostgreSQL index, and a restart opens it instead of re-indexing', async (t) => {
  t.timeout(120_000);
  const url = await testDatabase(t);
  const a = await startTestRuntime({ plugins: ['search'], databaseUrl: url, config: POSTGRES_ENGINE });
  const b = await startTestRuntime({ plugins: ['search'], databaseUrl: url, config: POSTGRES_ENGINE });
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });
  await createSite(a);
  const docs = makeDocs(60);
  await importDocs(a, docs);
  t.is((await search(a, 'q=*&_setlocale=en_US')).body.queryContext.count, 60);
  await eventually(async () => (await search(b, 'q=*&_setlocale=en_US')).body.queryContext?.count === 60, 'B searching the shared index');
  await json(b, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: docs[0]!.id } }],
  });
  t.is((await search(b, 'q=*&_setlocale=en_US')).body.queryContext.count, 59);
  await eventually(async () => (await search(a, 'q=*&_setlocale=en_US')).body.queryContext?.count === 59, 'A seeing the removal');
  // One index per site and locale (the sample site has two), however many processes use it.
  const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    const rows = await db.raw(
      `select i.locale, (select count(*)::int from search_engine_documents d where d.index_id = i.id) as documents
       from search_engine_indexes i order by i.locale`,
    );
    t.deepEqual(rows.rows, [
      { locale: 'en_US', documents: 59 },
      { locale: 'pt_BR', documents: 0 },
    ]);
  } finally {
    await db.destroy();
  }

  const c = await startTestRuntime({ plugins: ['search'], databaseUrl: url, config: POSTGRES_ENGINE });
  t.teardown(() => c.stop());
  t.is((await search(c, 'q=*&_setlocale=en_US')).body.queryContext.count, 59);
  t.false(
    c.logs.some((line) => line.msg === 'search index rebuilt'),
    'the third process opened the stored index',
  );
});

test('"engine": "postgres" over SQLite is refused with a clear configuration error', async (t) => {
  t.timeout(60_000);
  const error = await t.throwsAsync(startTestRuntime({ plugins: ['search'], config: { plugins: { search: { engine: 'postgres' } } } }));
  t.regex(String(error?.message), /"engine": "postgres" needs a PostgreSQL database/);
});

import type { SearchEngine } from '@vela/plugin-search/api';
import test, { type ExecutionContext } from 'ava';
import knex from 'knex';
import { eventually, postgresReachable, startTestRuntime, startTestRuntimeFor, testDatabase } from 'vela/testing';
import { answersAsMemory, sampleOnEach } from '../../search/test/engine-answers.js';
import { createSite, importDocs, json, makeDocs, search } from '../../search/test/fixtures.js';
import { createPostgresEngineFactory, type PostgresEngine } from '../engine/postgres-engine.js';
import { up } from '../migrations/001_engine_tables.js';

// The search service over the PostgreSQL engine (`"engine": "postgres"`) answers like the memory engine, shares
// its index between processes and keeps it across restarts. The engine's own cases: the search plugin's
// test/engine/, which run every engine.
const pgTest = postgresReachable() ? test : test.skip;
const POSTGRES_ENGINE = { plugins: { search: { engine: 'postgres' as const, indexer: { pollMs: 150 } } } };

pgTest('the PostgreSQL engine answers searches, filters, facets and sorts as the memory engine does', async (t) => {
  t.timeout(120_000);
  const docs = makeDocs(300);
  const memory = await startTestRuntimeFor(t, { plugins: ['search'] });
  const postgres = await startTestRuntimeFor(t, {
    plugins: ['search', 'search-postgres'],
    databaseUrl: (await testDatabase(t)).url,
    config: POSTGRES_ENGINE,
  });
  await sampleOnEach(t, [memory, postgres], docs);
  await answersAsMemory(t, memory, postgres);
  // The prefix retry (wildcardNoResults) found "python" for "pyth" on both.
  t.true((await search(postgres, 'q=pyth&_setlocale=en_US')).body.queryContext.count > 0);
  // Autocomplete and spell check read the engine's term dictionary, refreshed shortly after writes.
  await eventually(async () => {
    const r = await json(postgres, 'GET', '/api/sn/Sample/ac?q=edi&_setlocale=en_US');
    return r.status === 200 && JSON.stringify(r.body).includes('editor');
  }, 'autocomplete completing from the PostgreSQL dictionary');
});

pgTest(
  'processes on one database share the PostgreSQL index, and a restart opens it instead of re-indexing',
  async (t) => {
    t.timeout(120_000);
    const { url } = await testDatabase(t);
    const a = await startTestRuntime({
      plugins: ['search', 'search-postgres'],
      databaseUrl: url,
      config: POSTGRES_ENGINE,
    });
    const b = await startTestRuntime({
      plugins: ['search', 'search-postgres'],
      databaseUrl: url,
      config: POSTGRES_ENGINE,
    });
    t.teardown(async () => {
      await a.stop();
      await b.stop();
    });
    await createSite(a);
    const docs = makeDocs(60);
    await importDocs(a, docs);
    t.is((await search(a, 'q=*&_setlocale=en_US')).body.queryContext.count, 60);
    await eventually(
      async () => (await search(b, 'q=*&_setlocale=en_US')).body.queryContext?.count === 60,
      'B searching the shared index',
    );
    await json(b, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [
        { locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: docs[0]!.id } },
      ],
    });
    t.is((await search(b, 'q=*&_setlocale=en_US')).body.queryContext.count, 59);
    await eventually(
      async () => (await search(a, 'q=*&_setlocale=en_US')).body.queryContext?.count === 59,
      'A seeing the removal',
    );
    // One index per site and locale (the sample site has two), however many processes use it.
    const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    try {
      const rows = await db.raw(
        `select i.locale, (select count(*)::int from search_postgres_documents d where d.index_id = i.id and d.deleted_at is null) as documents
       from search_postgres_indexes i order by i.locale`,
      );
      t.deepEqual(rows.rows, [
        { locale: 'en_US', documents: 59 },
        { locale: 'pt_BR', documents: 0 },
      ]);
    } finally {
      await db.destroy();
    }

    const c = await startTestRuntimeFor(t, {
      plugins: ['search', 'search-postgres'],
      databaseUrl: url,
      config: POSTGRES_ENGINE,
    });
    t.is((await search(c, 'q=*&_setlocale=en_US')).body.queryContext.count, 59);
    t.false(
      c.logs.some((line) => line.msg === 'search index rebuilt'),
      'the third process opened the stored index',
    );
  },
);

test('"engine": "postgres" over SQLite is refused with a clear configuration error', async (t) => {
  t.timeout(60_000);
  const config = { plugins: { search: { engine: 'postgres' } } };
  const error = await t.throwsAsync(startTestRuntime({ plugins: ['search', 'search-postgres'], config }));
  t.regex(
    String(error?.message),
    /"engine": "postgres" needs a PostgreSQL database, and this runtime's database is sqlite/,
  );
  t.regex(String(error?.message), /search-postgres plugin/);
  // Over SQLite the plugin registers nothing: with another engine chosen, it is loaded and harmless.
  const memory = await startTestRuntimeFor(t, { plugins: ['search', 'search-postgres'] });
  t.deepEqual(
    memory.runtime.hookBus.describe().find((h) => h.name === 'search.engines'),
    { name: 'search.engines', owner: 'search', taps: ['search-postgres:postgres'] },
  );
  // Without the plugin the name is unknown, and the error says how engines are added.
  const alone = await t.throwsAsync(startTestRuntime({ plugins: ['search'], config }));
  t.regex(
    String(alone?.message),
    /"engine": "postgres" is no registered search engine; the registered ones are "memory"/,
  );
});

// Fencing: every process writes the shared index, each at its own pace. A write carries the change-log seq its
// documents are current for; an older one never replaces a newer one, removals included, whatever the order.
const SCHEMA = { facetFields: ['kind'], numberFields: [], stringFields: [] };
const doc = (id: string, text: string) => ({ id, text, facets: { kind: ['page'] }, numbers: {}, strings: {} });
const textQuery = (text: string | null) => ({
  text,
  filter: { and: [], or: [] },
  facets: [{ field: 'kind', ignoreFilters: [], limit: 0, sort: 'count' as const }],
  sort: { by: 'relevance' as const },
  offset: 0,
  limit: 100,
});

/** Two "processes": two connection pools on one database, each with its engine factory. */
async function twoProcesses(t: ExecutionContext) {
  const { url } = await testDatabase(t);
  const pools = [0, 1].map(() => knex({ client: 'pg', connection: url, pool: { min: 0, max: 4 } }));
  t.teardown(() => Promise.all(pools.map((pool) => pool.destroy())));
  await up(pools[0]!);
  const factories = pools.map((pool) => createPostgresEngineFactory(pool, { termsRefreshMs: 10 }));
  return { pools, factories: factories as [(typeof factories)[0], (typeof factories)[0]] };
}

/** One engine on each of two "processes", for the same site and locale, disposed after the test. */
async function oneIndexTwice(t: ExecutionContext) {
  const { factories } = await twoProcesses(t);
  const scope = { siteId: 'site-1', locale: 'en_US', indexKey: 'k1' };
  const engines = factories.map((factory) => factory.create(SCHEMA, scope)) as [SearchEngine, SearchEngine];
  t.teardown(() => {
    for (const engine of engines) engine.dispose?.();
  });
  return { factories, engines };
}

const ids = async (engine: SearchEngine, text: string | null) =>
  (await engine.query(textQuery(text))).hits.map((hit) => hit.id).sort();

pgTest('an older version written after a newer one is dropped, and a removal fences off older writes', async (t) => {
  t.timeout(60_000);
  const {
    engines: [fast, slow],
  } = await oneIndexTwice(t);
  t.is(await (fast as PostgresEngine).indexId, await (slow as PostgresEngine).indexId, 'one index for the scope');

  await fast.upsert([doc('a', 'second edition'), doc('b', 'kept text')], 12);
  // The slow process read "a" before change 12 and writes it late.
  await slow.upsert([doc('a', 'first edition'), doc('c', 'brand new')], 10);
  t.deepEqual(await ids(slow, 'second'), ['a']);
  t.deepEqual(await ids(fast, 'first'), []);
  t.deepEqual(await ids(fast, 'brand'), ['c'], 'a document the row did not hold yet is written');
  // The same version again (another process replaying change 12) changes nothing either.
  await slow.upsert([doc('a', 'another read')], 12);
  t.deepEqual(await ids(fast, 'another'), []);

  // "b" removed at 15; a process that read it at 13 writes it afterwards: it stays removed.
  await fast.remove(['b'], 15);
  await slow.upsert([doc('b', 'kept text revived')], 13);
  t.false(await slow.has('b'));
  t.deepEqual(await ids(fast, null), ['a', 'c']);
  t.deepEqual((await fast.query(textQuery(null))).facets.kind, [['page', 2]], 'a tombstone is counted nowhere');
  // A removal older than the row it meets leaves it.
  await slow.remove(['a'], 11);
  t.true(await fast.has('a'));
  // Added again by a later change: back, at the end of the indexing order.
  await slow.upsert([doc('b', 'third life')], 16);
  t.deepEqual(
    (await fast.query(textQuery(null))).hits.map((hit) => hit.id),
    ['a', 'c', 'b'],
  );
  await (fast as PostgresEngine).refresh();
  t.is(fast.size, 3);
  t.is(fast.terms.documentFrequency('kept'), 0, 'the tombstone left no term behind');
});

pgTest('a removal and an older write racing on two connections always end with the document removed', async (t) => {
  t.timeout(60_000);
  const {
    engines: [one, two],
  } = await oneIndexTwice(t);
  const batch = Array.from({ length: 200 }, (_, i) => `doc-${i}`);
  for (let round = 0; round < 10; round++) {
    const base = 100 * (round + 1);
    await one.upsert(
      batch.map((id) => doc(id, `round ${round}`)),
      base,
    );
    // Issued together: either may reach the database first, or they may interleave row by row.
    const writes = [
      two.remove(batch, base + 20),
      one.upsert(
        batch.map((id) => doc(id, `stale ${round}`)),
        base + 10,
      ),
    ];
    await Promise.all(round % 2 === 0 ? writes : writes.reverse());
    t.deepEqual(await ids(one, null), [], `round ${round}`);
  }
});

pgTest(
  'a query on an index another process dropped runs on its replacement, or fails with a 503 when the columns changed',
  async (t) => {
    t.timeout(60_000);
    const { factories } = await twoProcesses(t);
    const [mine, theirs] = factories;
    const old = mine.create(SCHEMA, { siteId: 'site-1', locale: 'en_US', indexKey: 'fields-v1' });
    t.teardown(() => old.dispose?.());
    await old.upsert([doc('a', 'old fields text')], 5);

    // The other process changed a text field: same columns, a new index, built and marked complete; the old one
    // dropped.
    const newScope = { siteId: 'site-1', locale: 'en_US', indexKey: 'fields-v2' };
    const rebuilt = theirs.create(SCHEMA, newScope);
    t.teardown(() => rebuilt.dispose?.());
    await rebuilt.upsert([doc('a', 'new fields text'), doc('b', 'new fields too')], 6);
    await theirs.persistent.markApplied([rebuilt], 6);
    await theirs.persistent.drop('site-1', 'en_US', newScope);

    t.deepEqual(await ids(old, 'fields'), ['a', 'b'], 'answered from the replacement');
    t.deepEqual((await old.query(textQuery('new'))).facets.kind, [['page', 2]]);
    // Writes into the dropped index are moot (the new index gets the change from whoever applies it there).
    await old.upsert([doc('c', 'late write')], 7);
    await old.remove(['a'], 8);
    t.true((old as PostgresEngine).gone);
    t.deepEqual(await ids(rebuilt, null), ['a', 'b']);

    // Then a facet field is added: the replacement has other columns, and this query cannot run on it.
    const wider = { ...SCHEMA, facetFields: ['kind', 'lang'] };
    const widerScope = { siteId: 'site-1', locale: 'en_US', indexKey: 'fields-v3' };
    const third = theirs.create(wider, widerScope);
    t.teardown(() => third.dispose?.());
    await third.upsert([doc('a', 'widest')], 9);
    await theirs.persistent.markApplied([third], 9);
    await theirs.persistent.drop('site-1', 'en_US', widerScope);
    const error = await t.throwsAsync(async () => rebuilt.query(textQuery('widest')));
    t.like(error as unknown as Record<string, unknown>, { code: 'index_changed', status: 503 });
  },
);

pgTest(
  'retainOnly with a version removes what the scan did not see, sparing rows written for later changes',
  async (t) => {
    t.timeout(60_000);
    const {
      factories,
      engines: [rebuilding, other],
    } = await oneIndexTwice(t);
    await rebuilding.upsert([doc('gone', 'deleted before the scan'), doc('kept', 'in the scan')], 10);
    // Written by another process for change 25, after the scan (at 20) began.
    await other.upsert([doc('late', 'created during the scan')], 25);
    await factories[0].persistent.retainOnly(rebuilding, new Set(['kept']), 20);
    t.deepEqual(await ids(other, null), ['kept', 'late']);
  },
);

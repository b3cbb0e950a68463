import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import {
  childEnv,
  eventually,
  onBothDatabases,
  postgresReachable,
  startChildRuntime,
  startTestRuntime,
  TEST_ADMIN,
  testDatabase,
  testFolder,
} from 'vela/testing';
import {
  adminCalls,
  createSite,
  type Doc,
  importDocs,
  indexedIds,
  makeDocs,
  sampleImport,
  search,
} from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

const STREAMS = 4;
const BATCHES = 30;
const BATCH_SIZE = 20;
const indexer = { pollMs: 100, snapshotDelayMs: 200, batchSize: 50 };
const call = adminCalls(TEST_ADMIN.password);

/**
 * One import stream: many small batches, one at a time, each of new ids except every fourth, which
 * sends the previous batch again (changed), so some documents are written twice. Returns the ids of
 * the batches answered 200.
 */
async function stream(base: string, name: string): Promise<string[]> {
  const acknowledged: string[] = [];
  let previous: Doc[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const docs =
      b % 4 === 3
        ? previous.map((d) => ({ ...d, title: `${d.title} again` }))
        : makeDocs(BATCH_SIZE, b).map((d, i) => ({ ...d, id: `${name}-${b}-${i}` }));
    const answer = await call(base, 'POST', '/api/sn/import', sampleImport(docs));
    if (answer.status !== 200) throw new Error(`import answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    acknowledged.push(...docs.map((d) => d.id));
    previous = docs;
  }
  return acknowledged;
}

/** Import one document and wait until it is searchable: afterwards every change committed earlier must be too. */
async function sync(base: string, id: string): Promise<void> {
  const r = await call(base, 'POST', '/api/sn/import?wait=true', sampleImport([{ ...makeDocs(1)[0]!, id }]));
  if (r.status !== 200 || r.body.indexed !== true)
    throw new Error(`sync import answered ${r.status}: ${JSON.stringify(r.body)}`);
}

pgTest(
  'on PostgreSQL, concurrent imports from several connections and two processes: every acknowledged document is searchable once, on each process',
  async (t) => {
    // Two processes, 240 imports and a restart.
    t.timeout(240_000);
    const pg = await testDatabase(t);
    const a = await startTestRuntime({
      plugins: ['search'],
      databaseUrl: pg.url,
      config: { plugins: { search: { indexer } } },
      logLevel: 'warn',
    });
    let aStopped = false;
    t.teardown(() => (aStopped ? undefined : a.stop()));
    await createSite(a);

    const dir = testFolder(t, 'feed');
    const config = path.join(dir, 'vela.json');
    writeFileSync(config, JSON.stringify({ runtime: { database: { url: pg.url } }, plugins: { search: { indexer } } }));
    const b = await startChildRuntime(
      ['--plugins', 'search', '--data-dir', dir, '--config', config],
      childEnv({ VELA_ADMIN_PASSWORD: TEST_ADMIN.password }),
    );
    t.teardown(async () => {
      await b.stop('SIGKILL');
    });
    const baseA = a.url('search');
    const baseB = b.urls.search!;

    const runs = [];
    for (let s = 0; s < STREAMS; s++) runs.push(stream(baseA, `a${s}`), stream(baseB, `b${s}`));
    const acknowledged = [...new Set((await Promise.all(runs)).flat()), 'sync-a', 'sync-b'].sort();
    await sync(baseA, 'sync-a');
    await sync(baseB, 'sync-b');
    // A has not waited for B's last import: it finds it at its next poll.
    await eventually(async () => (await indexedIds(call, baseA)).includes('sync-b'), "A finding B's last import");

    for (const [name, base] of [
      ['A', baseA],
      ['B', baseB],
    ] as const) {
      const held = await indexedIds(call, base);
      const indexed = new Set(held);
      const missing = acknowledged.filter((id) => !indexed.has(id));
      t.is(
        missing.length,
        0,
        `process ${name}: ${missing.length} acknowledged documents are not searchable (${missing.slice(0, 5).join(', ')}...)`,
      );
      t.is(held.length, indexed.size, `process ${name}: no document twice`);
      t.is(held.length, acknowledged.length, `process ${name}: nothing that was not acknowledged`);
      const monitoring = await call(base, 'GET', '/api/sn/Sample/monitoring');
      t.like(monitoring.body, { documents: acknowledged.length, queue: 0 }, `process ${name}: monitoring`);
    }

    // A restart loads the snapshot written at stop and replays the log: still everything.
    await a.runtime.stop();
    aStopped = true;
    const again = await startTestRuntime({
      plugins: ['search'],
      databaseUrl: pg.url,
      dataDir: a.dataDir,
      config: { plugins: { search: { indexer } } },
      logLevel: 'warn',
    });
    t.teardown(async () => {
      await again.stop();
      rmSync(a.dataDir, { recursive: true, force: true });
    });
    t.deepEqual(await indexedIds(call, again.url('search')), acknowledged, 'after a restart');
  },
);

onBothDatabases(
  test,
  'a process whose unread changes another process pruned rebuilds its indexes from the stored documents',
  async (t, databaseUrl) => {
    t.timeout(90_000);
    // On SQLite, both processes open one file.
    const url = databaseUrl ?? `sqlite://${path.join(testFolder(t, 'feed'), 'shared.sqlite')}`;
    // A snapshots (and prunes the log) soon after each import; B never polls, so it reads only when it imports.
    const a = await startTestRuntime({
      plugins: ['search'],
      databaseUrl: url,
      config: { plugins: { search: { indexer: { pollMs: 0, snapshotDelayMs: 50 } } } },
    });
    t.teardown(() => a.stop());
    await createSite(a);
    const b = await startTestRuntime({
      plugins: ['search'],
      databaseUrl: url,
      config: { plugins: { search: { indexer: { pollMs: 0, snapshotDelayMs: 0 } } } },
    });
    t.teardown(() => b.stop());

    const docs = makeDocs(120);
    // Only a snapshot written after this import has pruned its changes (one may follow the site's creation).
    const logsBefore = a.logs.length;
    await importDocs(a, docs.slice(0, 100));
    await eventually(
      async () => a.logs.slice(logsBefore).some((l) => l.msg === 'search index snapshot written'),
      'A writing a snapshot',
    );
    await importDocs(b, docs.slice(100));
    t.is((await search(b, 'q=*&_setlocale=en_US&rows=1')).body.queryContext.count, 120, "B holds A's documents too");
    t.true(b.logs.some((l) => l.msg === 'changes not yet applied were pruned by another process; rebuilding'));
  },
);

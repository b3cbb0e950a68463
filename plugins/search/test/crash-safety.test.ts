import test from 'ava';
import {
  type ChildRuntime,
  childEnv,
  childStartArgs,
  eventually,
  postgresReachable,
  startChildRuntime,
  testFolder,
} from 'vela/testing';
import { adminCalls, type Doc, indexedIds, makeDocs, SITE_FIELDS, sampleImport } from './fixtures.js';

// kill -9 during imports from several streams, then a restart on the same data: every import answered
// 200 is searchable exactly once, on SQLite and on PostgreSQL.

const STREAMS = 6;
const BATCH_SIZE = 25;
const call = adminCalls('child-test-password');

interface Ledger {
  /** Ids of every batch sent, answered or not. */
  sent: Set<string>;
  /** Ids of the batches answered 200. */
  acknowledged: Set<string>;
  /** Batches sent and never answered (the process died). */
  unanswered: number;
}

/**
 * Import batches until the process dies: new ids, every third batch the previous one again (changed),
 * every fifth with ?wait=true. Each batch's ids go into the ledger before it is sent and after it is answered.
 */
async function stream(base: string, name: string, ledger: Ledger): Promise<void> {
  let previous: Doc[] = [];
  for (let b = 0; ; b++) {
    const docs =
      b % 3 === 2
        ? previous.map((d) => ({ ...d, title: `${d.title} again` }))
        : makeDocs(BATCH_SIZE, b).map((d, i) => ({ ...d, id: `${name}-${b}-${i}` }));
    for (const d of docs) ledger.sent.add(d.id);
    let answer: { status: number };
    try {
      answer = await call(base, 'POST', `/api/sn/import${b % 5 === 4 ? '?wait=true' : ''}`, sampleImport(docs));
    } catch {
      ledger.unanswered++; // the process is gone
      return;
    }
    if (answer.status !== 200) throw new Error(`import answered ${answer.status}`);
    for (const d of docs) ledger.acknowledged.add(d.id);
    previous = docs;
  }
}

for (const database of ['sqlite', 'postgres'] as const) {
  const dbTest = database === 'sqlite' || postgresReachable() ? test : test.skip;
  dbTest(
    `${database}: kill -9 during imports from ${STREAMS} streams; after the restart every acknowledged document is searchable exactly once`,
    async (t) => {
      // Two starts of a child process, thousands of imports and a search of all of them.
      t.timeout(240_000);
      const settings = { plugins: { search: { indexer: { snapshotDelayMs: 100, pollMs: 200 } } } };
      const args = await childStartArgs(t, testFolder(t, 'crash'), ['search'], settings, database);

      let vela: ChildRuntime = await startChildRuntime(args, childEnv());
      t.teardown(() => vela.stop('SIGKILL'));
      t.is((await call(vela.urls.search!, 'POST', '/api/sn', { name: 'Sample', fields: SITE_FIELDS })).status, 201);
      // A first import and its snapshot, so the restart loads a snapshot and replays the log after it.
      const first = makeDocs(200).map((d) => ({ ...d, id: `first-${d.id}` }));
      t.is((await call(vela.urls.search!, 'POST', '/api/sn/import?wait=true', sampleImport(first))).status, 200);
      await eventually(() => vela.output().includes('search index snapshot written'), 'a snapshot');

      const ledger: Ledger = {
        sent: new Set(first.map((d) => d.id)),
        acknowledged: new Set(first.map((d) => d.id)),
        unanswered: 0,
      };
      const streams = Array.from({ length: STREAMS }, (_, s) => stream(vela.urls.search!, `s${s}`, ledger));
      await eventually(() => ledger.acknowledged.size >= 4000, 'imports under way', 30_000, 10);
      t.is((await vela.stop('SIGKILL')).signal, 'SIGKILL');
      await Promise.all(streams);
      t.is(ledger.unanswered, STREAMS, 'every stream had a batch in flight when the process died');

      vela = await startChildRuntime(args, childEnv());
      t.log(`killed with ${ledger.acknowledged.size} documents acknowledged and ${ledger.sent.size} sent`);
      const held = await indexedIds(call, vela.urls.search!);
      const indexed = new Set(held);
      const lost = [...ledger.acknowledged].filter((id) => !indexed.has(id));
      t.is(
        lost.length,
        0,
        `${lost.length} of ${ledger.acknowledged.size} acknowledged documents are not searchable (${lost.slice(0, 5).join(', ')})`,
      );
      t.is(held.length, indexed.size, 'no document twice');
      t.deepEqual(
        held.filter((id) => !ledger.sent.has(id)),
        [],
        'nothing that was never sent',
      );
      const monitoring = await call(vela.urls.search!, 'GET', '/api/sn/Sample/monitoring');
      t.like(monitoring.body, { documents: indexed.size, queue: 0 }, 'the store and the index agree');
    },
  );
}

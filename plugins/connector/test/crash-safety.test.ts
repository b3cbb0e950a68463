import path from 'node:path';
import test from 'ava';
import {
  type ChildRuntime,
  childEnv,
  childStartArgs,
  postgresReachable,
  startChildRuntime,
  testFolder,
} from 'vela/testing';
import { KEY, MAPPING, makePackages, SITE_FIELDS, until, writeJsonl } from './helpers.js';

// kill -9 during a connector run, then a restart on the same data: the connector never records INDEXED
// what the index lacks, and the next run makes the index equal to the source, on SQLite and PostgreSQL.

const RECORDS = 4000;
const admin = { authorization: `Basic ${Buffer.from('admin:child-test-password').toString('base64')}` };

async function call(
  base: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = { key: KEY },
): Promise<any> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${method} ${pathname} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The objectIds of the source's records in one status, every page. */
async function recorded(vela: ChildRuntime, status: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page++) {
    const body = await call(vela.urls.connector!, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
      source: 'feed',
      status,
      page,
      size: 1000,
    });
    ids.push(...body.content.map((r: { objectId: string }) => r.objectId));
    if (body.content.length < 1000) return ids;
  }
}

async function indexedCount(vela: ChildRuntime): Promise<number> {
  const body = await call(vela.urls.connector!, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
    source: 'feed',
    status: 'INDEXED',
    page: 0,
    size: 1,
  });
  return body.totalElements;
}

async function indexedIds(vela: ChildRuntime): Promise<string[]> {
  const ids: string[] = [];
  for (let p = 1; ; p++) {
    const body = await call(
      vela.urls.search!,
      'GET',
      `/api/sn/Feed/search?q=*&_setlocale=en_US&fl=id&rows=1000&p=${p}`,
      undefined,
      {},
    );
    const page = body.results.document.map((d: { fields: { id: string } }) => d.fields.id);
    ids.push(...page);
    if (page.length < 1000) return ids;
  }
}

const runOf = async (vela: ChildRuntime, runId: string) =>
  (
    (await call(vela.urls.connector!, 'GET', '/api/v2/connector/monitoring/indexing/stats/feed')) as Array<{
      id: string;
      status: string;
    }>
  ).find((r) => r.id === runId);

for (const database of ['sqlite', 'postgres'] as const) {
  const dbTest = database === 'sqlite' || postgresReachable() ? test : test.skip;
  dbTest(
    `${database}: kill -9 during a connector run; the statuses agree with the index, and the next run makes the index equal the source`,
    async (t) => {
      // Child processes killed and started again, and two connector runs.
      t.timeout(240_000);
      const dir = testFolder(t, 'connector');
      const file = writeJsonl(path.join(dir, 'feed.jsonl'), makePackages(RECORDS));
      const source = { name: 'feed', kind: 'jsonl', sites: ['Feed'], settings: { path: file, ...MAPPING } };
      const settings: Record<string, unknown> = {
        plugins: {
          search: { indexer: { snapshotDelayMs: 100 } },
          connector: { apiKeys: [KEY], batchSize: 25, sources: [source] },
        },
      };
      const args = [...(await childStartArgs(t, dir, ['search', 'connector'], settings, database)), '--no-seed'];

      let vela = await startChildRuntime(args, childEnv());
      t.teardown(() => vela.stop('SIGKILL'));
      await call(vela.urls.search!, 'POST', '/api/sn', { name: 'Feed', fields: SITE_FIELDS }, admin);
      const killedRun = (await call(vela.urls.connector!, 'GET', '/api/v2/connector/index/feed/all')).runId as string;
      await until('the run to be under way', async () => ((await indexedCount(vela)) >= 500 ? true : undefined));
      t.is((await vela.stop('SIGKILL')).signal, 'SIGKILL');

      vela = await startChildRuntime(args, childEnv());
      t.is((await runOf(vela, killedRun))?.status, 'INTERRUPTED', 'the process died during the run');
      const indexed = await indexedIds(vela);
      const held = new Set(indexed);
      const claimed = await recorded(vela, 'INDEXED');
      t.log(`killed with ${claimed.length} of ${RECORDS} records INDEXED and ${indexed.length} documents in the index`);
      const lacking = claimed.filter((id) => !held.has(id));
      t.is(
        lacking.length,
        0,
        `${lacking.length} records are INDEXED but not in the index (${lacking.slice(0, 5).join(', ')})`,
      );
      t.is(indexed.length, held.size, 'no document twice');

      const next = (await call(vela.urls.connector!, 'GET', '/api/v2/connector/index/feed/all')).runId as string;
      const done = await until('the next run', async () => {
        const run = await runOf(vela, next);
        return run && run.status !== 'RUNNING' ? run : undefined;
      });
      t.like(done, { status: 'COMPLETED', errors: 0 });
      const expected = makePackages(RECORDS).map((d) => d.id);
      t.deepEqual((await indexedIds(vela)).sort(), expected, 'the index equals the source, each document once');
      t.is((await recorded(vela, 'INDEXED')).length, RECORDS, 'every record INDEXED');
      t.like(await call(vela.urls.search!, 'GET', '/api/sn/Feed/monitoring', undefined, admin), {
        documents: RECORDS,
        queue: 0,
      });
    },
  );
}

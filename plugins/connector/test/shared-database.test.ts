import { execFileSync } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { postgresReachable, type TestRuntime, testDatabase } from 'vela/testing';
import {
  call,
  createSite,
  createSource,
  makePackages,
  startConnector,
  tempDir,
  until,
  waitForRun,
  writeJsonl,
} from './helpers.js';

const pgTest = postgresReachable() ? test : test.skip;

const runOf = async (vela: TestRuntime, source: string, runId: string) =>
  ((await call(vela, 'GET', `/api/v2/connector/monitoring/indexing/stats/${source}`)).body as any[]).find(
    (r) => r.id === runId,
  );

pgTest(
  "processes sharing one database see each other's sources and never run one source at the same time",
  async (t) => {
    const pg = await testDatabase(t);
    const config = { plugins: { search: { indexer: { pollMs: 100 } } } };
    const a = await startConnector({ databaseUrl: pg.url, config, connector: { pollMs: 100 } });
    const b = await startConnector({ databaseUrl: pg.url, config, connector: { pollMs: 100 } });
    t.teardown(async () => {
      await a.stop();
      await b.stop();
    });
    await createSite(a, 'Docs');

    // A source created on A appears on B.
    const dir = tempDir();
    const file = path.join(dir, 'feed.jsonl');
    execFileSync('mkfifo', [file]);
    await createSource(a, 'feed', file, 'Docs');
    await until('B to see the source', async () =>
      (await call(b, 'GET', '/api/v2/connector/source/feed')).status === 200 ? true : undefined,
    );

    // A runs it from a pipe that stalls: B may not start a full run, and its run by ids waits.
    const docs = makePackages(300);
    const running = await call(a, 'GET', '/api/v2/connector/index/feed/all');
    t.is(running.status, 200);
    const writer = createWriteStream(file);
    // Runs first (teardowns go in reverse): a reader blocked on the pipe would keep this process alive.
    t.teardown(() => writer.destroy());
    // 250 records at 200 a batch: once the first batch is recorded, A surely holds the lease.
    writer.write(
      `${docs
        .slice(0, 250)
        .map((d) => JSON.stringify(d))
        .join('\n')}\n`,
    );
    await until('A to record its first batch', async () => {
      const page = await call(a, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
        source: 'feed',
        page: 0,
        size: 1,
      });
      return page.body.totalElements >= 200 ? true : undefined;
    });
    t.is((await runOf(a, 'feed', running.body.runId))?.status, 'RUNNING');
    const refused = await call(b, 'GET', '/api/v2/connector/index/feed/all');
    t.is(refused.status, 409);
    t.regex(refused.body.message, /another process/);
    // Nor may B delete it meanwhile (A's run would go on recording a deleted source).
    const deleting = await call(b, 'DELETE', '/api/v2/connector/source/feed');
    t.is(deleting.status, 409);
    t.regex(deleting.body.message, /another process/);
    const byIds = await call(b, 'POST', '/api/v2/connector/index/feed', ['pkg-00001']);
    t.is(byIds.status, 200);

    // The path becomes a plain file for later readers; A's open pipe gets the rest and ends.
    rmSync(file);
    writeJsonl(file, docs);
    writer.end(
      `${docs
        .slice(250)
        .map((d) => JSON.stringify(d))
        .join('\n')}\n`,
    );
    const first = await waitForRun(a, 'feed', running.body.runId);
    t.like(first, { status: 'COMPLETED', indexed: 300 });
    const second = await waitForRun(b, 'feed', byIds.body.runId);
    t.like(second, { status: 'COMPLETED', operationType: 'INDEX_IDS', documentCount: 1, unchanged: 1 });
    t.true(Date.parse(second.endTime) >= Date.parse(first.endTime), "B's run ended after A's");

    const again = await call(b, 'GET', '/api/v2/connector/index/feed/all');
    t.is(again.status, 200);
    t.like(await waitForRun(b, 'feed', again.body.runId), { status: 'COMPLETED', unchanged: 300 });

    // Deleted on A, gone from B.
    t.is((await call(a, 'DELETE', '/api/v2/connector/source/feed')).status, 200);
    await until('B to forget the source', async () =>
      (await call(b, 'GET', '/api/v2/connector/source/feed')).status === 404 ? true : undefined,
    );
    t.is((await call(b, 'GET', '/api/v2/connector/index/feed/all')).status, 404, 'B cannot run a source deleted on A');
  },
);

pgTest(
  'with the polls off, a source created and deleted on one process reaches the other through the change notices',
  async (t) => {
    const pg = await testDatabase(t);
    const a = await startConnector({ databaseUrl: pg.url, connector: { pollMs: 0 } });
    const b = await startConnector({ databaseUrl: pg.url, connector: { pollMs: 0 } });
    t.teardown(async () => {
      await a.stop();
      await b.stop();
    });
    await createSite(a, 'Docs');
    const file = path.join(tempDir(), 'feed.jsonl');
    writeJsonl(file, makePackages(1));
    await createSource(a, 'noticed', file, 'Docs');
    await until('B to see the source', async () =>
      (await call(b, 'GET', '/api/v2/connector/source/noticed')).status === 200 ? true : undefined,
    );
    t.is((await call(a, 'DELETE', '/api/v2/connector/source/noticed')).status, 200);
    await until('B to see it gone', async () =>
      (await call(b, 'GET', '/api/v2/connector/source/noticed')).status === 404 ? true : undefined,
    );
  },
);

import test from 'ava';
import type { TestRuntime } from 'vela/testing';
import {
  call,
  createSite,
  createSource,
  makePackages,
  searchIds,
  startConnector,
  tempDir,
  writeJsonl,
} from './helpers.js';

// ?wait=true: a script that starts a run and then reads its results needs no polling.

let vela: TestRuntime;
const packages = makePackages(300);

test.before(async () => {
  vela = await startConnector();
  await createSite(vela, 'Waits');
  const dir = tempDir();
  await createSource(vela, 'feed', writeJsonl(`${dir}/feed.jsonl`, packages), 'Waits');
  await createSource(vela, 'other', writeJsonl(`${dir}/other.jsonl`, makePackages(5, 1000)), 'Waits');
});

test.after.always(async () => {
  await vela?.stop();
});

test.serial(
  'a full run with ?wait=true answers once it has ended, with its statistics, and its documents are searchable',
  async (t) => {
    const answer = await call(vela, 'GET', '/api/v2/connector/index/feed/all?wait=true');
    t.is(answer.status, 200);
    t.is(answer.body.status, 'sent');
    t.like(answer.body.run, {
      id: answer.body.runId,
      source: 'feed',
      operationType: 'INDEX_ALL',
      status: 'COMPLETED',
      documents: 300,
      indexed: 300,
    });
    t.is((await searchIds(vela, 'Waits')).filter((id) => id.startsWith('pkg-00')).length, 300);
  },
);

test.serial('runs by ids and reindex runs wait too, the runs queued before them included', async (t) => {
  const full = await call(vela, 'GET', '/api/v2/connector/reindex/feed/all');
  t.is(full.status, 200);
  t.is(full.body.run, undefined, 'without wait the answer comes at once, without statistics');
  const byIds = await call(vela, 'POST', '/api/v2/connector/index/feed?wait=true', ['pkg-00001']);
  t.like(byIds.body.run, { operationType: 'INDEX_IDS', status: 'COMPLETED', documents: 1 });
  const stats = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/feed');
  t.like(
    (stats.body as Array<{ id: string; status: string }>).find((r) => r.id === full.body.runId),
    { status: 'COMPLETED' },
    'the full run queued first has ended as well',
  );
  const reindexIds = await call(vela, 'GET', '/api/v2/connector/reindex/feed?id=pkg-00002&wait=true');
  t.like(reindexIds.body.run, { operationType: 'REINDEX_IDS', status: 'COMPLETED' });
  const indexId = await call(vela, 'GET', '/api/v2/connector/index/other?id=pkg-01000&wait=true');
  t.like(indexId.body.run, { source: 'other', operationType: 'INDEX_IDS', status: 'COMPLETED', indexed: 1 });
  const reindexAll = await call(vela, 'GET', '/api/v2/connector/reindex/other/all?wait=true');
  t.like(reindexAll.body.run, { operationType: 'REINDEX_ALL', status: 'COMPLETED', documents: 5 });
});

test.serial('wait takes true or false only, and a bad value starts no run', async (t) => {
  const before = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/other');
  for (const path of [
    '/api/v2/connector/index/other/all?wait=yes',
    '/api/v2/connector/index/other?id=pkg-01001&wait=1',
  ]) {
    const answer = await call(vela, 'GET', path);
    t.is(answer.status, 400, path);
    t.deepEqual(answer.body, { error: 'validation_failed', message: answer.body.message }, path);
    t.regex(answer.body.message, /^query\.wait must be of type boolean, got "(yes|1)"/, path);
  }
  const posted = await call(vela, 'POST', '/api/v2/connector/reindex/other?wait=maybe', ['pkg-01001']);
  t.is(posted.status, 400);
  const after = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/other');
  t.is((after.body as unknown[]).length, (before.body as unknown[]).length);
  const off = await call(vela, 'GET', '/api/v2/connector/index/other/all?wait=false');
  t.is(off.status, 200);
  t.is(off.body.run, undefined);
});

test('the OpenAPI document describes wait on every run route and the statistics it answers', async (t) => {
  const doc = (await (await vela.fetch('connector', '/v3/api-docs')).json()) as {
    paths: Record<
      string,
      Record<
        string,
        { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: unknown }> }
      >
    >;
  };
  const runRoutes: Array<[string, string]> = [
    ['/api/v2/connector/index/{name}/all', 'get'],
    ['/api/v2/connector/index/{name}', 'get'],
    ['/api/v2/connector/index/{name}', 'post'],
    ['/api/v2/connector/reindex/{name}/all', 'get'],
    ['/api/v2/connector/reindex/{name}', 'get'],
    ['/api/v2/connector/reindex/{name}', 'post'],
  ];
  for (const [path, method] of runRoutes) {
    const operation = doc.paths[path]?.[method];
    t.truthy(operation, `${method} ${path}`);
    t.true(
      (operation?.parameters ?? []).some((p) => p.name === 'wait' && p.in === 'query'),
      `${method} ${path} has the wait parameter`,
    );
    t.regex(JSON.stringify(operation?.responses['200']), /"run":\{/, `${method} ${path} describes run`);
  }
});

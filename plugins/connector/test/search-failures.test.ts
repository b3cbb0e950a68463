import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { TestRuntime } from 'vela/testing';
import {
  call,
  createSource,
  makePackages,
  runAndWait,
  searchCall,
  searchIds,
  startRemoteConnector,
  startRemoteSearch,
  tempJsonl,
  writeJsonl,
} from './helpers.js';

/**
 * A search service that fails on demand: a proxy in front of a real one that answers 500 to the import
 * calls `failImports` names (counted from 1 since the last reset), as a service that breaks mid-run does.
 */
async function flakySearch(
  t: ExecutionContext,
): Promise<{ search: TestRuntime; url: string; key: string; failImports(which: (n: number) => boolean): void }> {
  const { search, url: upstream, key } = await startRemoteSearch(t, 'Remote');
  let imports = 0;
  let failing: (n: number) => boolean = () => false;
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/api/sn/import') && failing(++imports)) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal_error","message":"boom"}');
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
        .then(async (answer) =>
          res
            .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
            .end(Buffer.from(await answer.arrayBuffer())),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return {
    search,
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    key,
    failImports(which) {
      imports = 0;
      failing = which;
    },
  };
}

/** A connector sending to a search service that can be made to fail, with 400 packages indexed through it. */
async function indexedThroughFlakySearch(t: ExecutionContext) {
  const flaky = await flakySearch(t);
  const vela = await startRemoteConnector(t, flaky, { batchSize: 100 });
  const docs = makePackages(400);
  const file = tempJsonl(docs);
  await createSource(vela, 'pkgs', file, 'Remote');
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), { status: 'COMPLETED', indexed: 400 });
  return { flaky, vela, docs, file };
}

test('a search service that answers 500 mid-run: the run fails, nothing is lost, duplicated or de-indexed, and the next run catches up', async (t) => {
  const { flaky, vela, docs, file } = await indexedThroughFlakySearch(t);

  // 50 documents vanish and 100 change; the second batch meets a 500.
  const next = [...docs.slice(50, 150).map((d) => ({ ...d, title: `${d.title} (new)` })), ...docs.slice(150)];
  writeJsonl(file, next);
  flaky.failImports((n) => n === 2);
  const failed = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.is(failed.status, 'FAILED');
  t.regex(failed.error, /answered 500/);
  t.is(failed.deindexed, 0);
  t.deepEqual(
    await searchIds(flaky.search, 'Remote'),
    docs.map((d) => d.id),
    'nothing de-indexed, nothing duplicated',
  );

  flaky.failImports(() => false);
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
    status: 'COMPLETED',
    errors: 0,
    deindexed: 50,
  });
  t.deepEqual(await searchIds(flaky.search, 'Remote'), next.map((d) => d.id).sort());
  const changed = await searchCall(
    flaky.search,
    'GET',
    '/api/sn/Remote/search?q=*&_setlocale=en_US&rows=1000&fl=id,title',
  );
  t.is(changed.body.results.document.filter((d: any) => String(d.fields.title).endsWith('(new)')).length, 100);
});

test('a reindex whose deletes fail halfway loses nothing: the next run sends every deleted document again', async (t) => {
  const { flaky, vela, docs } = await indexedThroughFlakySearch(t);

  // The first delete batch of the reindex goes through (100 documents leave the index), the second fails.
  flaky.failImports((n) => n === 2);
  const failed = await runAndWait(vela, '/api/v2/connector/reindex/pkgs/all', 'pkgs');
  t.is(failed.status, 'FAILED');
  t.is((await searchIds(flaky.search, 'Remote')).length, 300);

  flaky.failImports(() => false);
  const next = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(next, { status: 'COMPLETED', errors: 0, indexed: 400, unchanged: 0 });
  t.deepEqual(
    await searchIds(flaky.search, 'Remote'),
    docs.map((d) => d.id),
  );
  const diff = await call(vela, 'GET', '/api/v2/connector/validate/pkgs');
  t.deepEqual(diff.body.missing, { 'Remote/en_US': [] });
});

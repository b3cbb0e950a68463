import { execFileSync } from 'node:child_process';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { type ChildRuntime, childEnv, startChildRuntime } from 'vela/testing';
import {
  call,
  createSite,
  createSource,
  KEY,
  MAPPING,
  makePackages,
  runAndWait,
  SITE_FIELDS,
  searchIds,
  searchRecords,
  startConnector,
  startPackageSource,
  tempDir,
  until,
  writeJsonl,
} from './helpers.js';

test('a run that fails halfway de-indexes nothing; the next complete run does', async (t) => {
  const all = makePackages(500);
  const { vela, file } = await startPackageSource(t, all, 'p.jsonl.gz');
  await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');

  // The new file drops the first 100 records and is cut off in the middle of the gzip stream.
  const kept = all.slice(100);
  const gz = gzipSync(`${kept.map((d) => JSON.stringify(d)).join('\n')}\n`);
  writeFileSync(file, gz.subarray(0, Math.floor(gz.length / 2)));
  const failed = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.is(failed.status, 'FAILED');
  t.regex(failed.error, /unexpected end of file/i);
  t.is(failed.deindexed, 0);
  t.is((await searchIds(vela, 'Docs')).length, 500, 'nothing that vanished was de-indexed');

  // A record the source cannot read is an error too: still no de-indexing, and the error is recorded.
  writeJsonl(file, [...kept.map((d) => JSON.stringify(d)), '{"id": "broken", ']);
  const withError = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(withError, { status: 'COMPLETED', errors: 1, deindexed: 0 });
  t.is((await searchIds(vela, 'Docs')).length, 500);
  const errors = await searchRecords(vela, 'pkgs', 'ERROR');
  t.is(errors.body.totalElements, 1);
  t.regex(errors.body.content[0].error, /^line 401 is not valid JSON \(17 characters\)$/);

  writeJsonl(file, kept);
  const complete = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(complete, { status: 'COMPLETED', errors: 0, deindexed: 100 });
  t.deepEqual(
    await searchIds(vela, 'Docs'),
    kept.map((d) => d.id),
  );
});

test('documents the search service refuses are recorded as ERROR with the reason and retried on the next run', async (t) => {
  const docs = makePackages(30);
  // size is an INT field: a text size is refused by the search service, for that document only.
  const bad = docs.map((d, i) => (i === 5 ? { ...d, size: 'huge' } : d));
  const { vela, file } = await startPackageSource(t, bad);
  const first = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(first, { status: 'COMPLETED', indexed: 29, errors: 1 });
  const failed = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing', ['pkg-00005']);
  t.like(failed.body.indexing[0], { objectId: 'pkg-00005', status: 'ERROR', checksum: null });
  t.regex(failed.body.indexing[0].error, /must be an integer/);

  writeJsonl(file, docs);
  const second = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(second, { indexed: 1, unchanged: 29, errors: 0 });
  t.deepEqual(
    await searchIds(vela, 'Docs'),
    docs.map((d) => d.id),
  );
});

async function child(
  method: string,
  base: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = { key: KEY },
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test('a process killed during a run loses and duplicates nothing: the next run reconciles', async (t) => {
  const dir = tempDir();
  const dataDir = path.join(dir, 'data');
  const file = path.join(dir, 'feed.jsonl');
  const config = path.join(dir, 'vela.json');
  writeFileSync(
    config,
    JSON.stringify({
      plugins: {
        connector: {
          apiKeys: [KEY],
          batchSize: 100,
          sources: [{ name: 'feed', kind: 'jsonl', sites: ['Feed'], settings: { path: file, ...MAPPING } }],
        },
      },
    }),
  );
  const args = ['--plugins', 'search,connector', '--data-dir', dataDir, '--config', config, '--no-seed'];
  const admin = { authorization: `Basic ${Buffer.from('admin:child-test-password').toString('base64')}` };

  // First a complete run of 300 documents, 50 of which will later vanish.
  const old = makePackages(300);
  writeJsonl(file, old);
  let vela: ChildRuntime = await startChildRuntime(args, childEnv());
  t.teardown(() => vela.stop('SIGKILL'));
  t.is((await child('POST', vela.urls.search!, '/api/sn', { name: 'Feed', fields: SITE_FIELDS }, admin)).status, 201);
  const firstRun = await child('GET', vela.urls.connector!, '/api/v2/connector/index/feed/all');
  await until('the first run', async () => {
    const stats = await child('GET', vela.urls.connector!, '/api/v2/connector/monitoring/indexing/stats/feed');
    return stats.body?.find?.((r: any) => r.id === firstRun.body.runId && r.status === 'COMPLETED');
  });

  // The feed becomes a pipe that delivers 250 old and 500 new records, then stalls mid-run.
  const next = [...old.slice(50), ...makePackages(500, 5000)];
  rmSync(file);
  execFileSync('mkfifo', [file]);
  const run = await child('GET', vela.urls.connector!, '/api/v2/connector/index/feed/all');
  t.is(run.status, 200);
  const writer = createWriteStream(file);
  writer.on('error', () => undefined);
  writer.write(`${next.map((d) => JSON.stringify(d)).join('\n')}\n`);
  // 750 records at 100 a batch: 700 are sent (changed ones recorded), the last 50 wait in the buffer.
  await until('the first batches to be recorded', async () => {
    const page = await child('POST', vela.urls.connector!, '/api/v2/connector/monitoring/indexing/_search', {
      source: 'feed',
      objectId: 'pkg-05',
      page: 0,
      size: 1,
    });
    return page.body.totalElements >= 400 ? true : undefined;
  });
  const killed = await vela.stop('SIGKILL');
  t.is(killed.signal, 'SIGKILL');
  writer.destroy();

  // Restart on the same data with the whole feed as a file; the killed run is INTERRUPTED.
  rmSync(file);
  writeJsonl(file, next);
  vela = await startChildRuntime(args, childEnv());
  const stats = await child('GET', vela.urls.connector!, '/api/v2/connector/monitoring/indexing/stats/feed');
  t.is(stats.body.find((r: any) => r.id === run.body.runId).status, 'INTERRUPTED');
  const ids = async () => {
    const out: string[] = [];
    for (let p = 1; ; p++) {
      const r = await child(
        'GET',
        vela.urls.search!,
        `/api/sn/Feed/search?q=*&_setlocale=en_US&fl=id&rows=1000&p=${p}`,
        undefined,
        {},
      );
      const page = r.body.results.document.map((d: any) => d.fields.id as string);
      out.push(...page);
      if (page.length < 1000) return out.sort();
    }
  };
  t.is((await ids()).filter((id) => id < 'pkg-00050').length, 50, 'the interrupted run de-indexed nothing');

  const again = await child('GET', vela.urls.connector!, '/api/v2/connector/index/feed/all');
  const done = await until('the reconciling run', async () => {
    const s = await child('GET', vela.urls.connector!, '/api/v2/connector/monitoring/indexing/stats/feed');
    return s.body?.find?.((r: any) => r.id === again.body.runId && r.status !== 'RUNNING');
  });
  t.like(done, { status: 'COMPLETED', errors: 0, deindexed: 50, documentCount: 750 });
  t.true(
    done.indexed <= 500 && done.indexed >= 50,
    `only what the killed run had not recorded is sent again (${done.indexed})`,
  );
  const held = await ids();
  t.deepEqual(held, next.map((d) => d.id).sort(), 'every document once, none that vanished');
  const indexed = await child('POST', vela.urls.connector!, '/api/v2/connector/monitoring/indexing/_search', {
    source: 'feed',
    status: 'INDEXED',
    page: 0,
    size: 1,
  });
  t.is(indexed.body.totalElements, 750);
  await vela.stop();
});

test('stopping the runtime during a run interrupts it cleanly: recorded as INTERRUPTED, nothing de-indexed', async (t) => {
  const dir = tempDir();
  const dataDir = path.join(dir, 'data');
  const file = path.join(dir, 'feed.jsonl');
  const old = makePackages(100);
  writeJsonl(file, old);
  const first = await startConnector({ dataDir });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : first.stop()));
  await createSite(first, 'Docs');
  await createSource(first, 'feed', file, 'Docs');
  await runAndWait(first, '/api/v2/connector/index/feed/all', 'feed');

  rmSync(file);
  execFileSync('mkfifo', [file]);
  const run = await call(first, 'GET', '/api/v2/connector/index/feed/all');
  const writer = createWriteStream(file);
  writer.on('error', () => undefined);
  // 50 old records (so 50 have vanished so far) and 450 new ones, then the pipe stalls.
  writer.write(`${[...old.slice(50), ...makePackages(450, 5000)].map((d) => JSON.stringify(d)).join('\n')}\n`);
  await until('the first batches to be recorded', async () => {
    const page = await call(first, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
      source: 'feed',
      objectId: 'pkg-05',
      page: 0,
      size: 1,
    });
    return page.body.totalElements >= 200 ? true : undefined;
  });
  await first.stop();
  stopped = true;
  writer.destroy();
  t.deepEqual(
    first.logs.filter((l) => l.level >= 50).map((l) => JSON.stringify(l).slice(0, 600)),
    [],
    'no error logged while stopping',
  );

  rmSync(file);
  writeJsonl(file, old);
  const second = await startConnector({ dataDir });
  t.teardown(async () => {
    await second.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const stats = await call(second, 'GET', '/api/v2/connector/monitoring/indexing/stats/feed');
  t.like(
    stats.body.find((r: any) => r.id === run.body.runId),
    { status: 'INTERRUPTED', deindexed: 0 },
  );
  t.is((await searchIds(second, 'Docs')).filter((id) => id < 'pkg-00050').length, 50);
});

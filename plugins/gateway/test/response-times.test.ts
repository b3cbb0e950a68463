import test from 'ava';
import { startTestRuntime, testFolder } from 'vela/testing';
import type { ResponseTimeReport as Report } from '../metrics/response-time-report.js';
import { admin, closedPort, createApp, createMapping, startServer } from './fixtures.js';

test('the report counts every proxied request per mapping, with error rate, percentiles and a series, and survives a restart', async (t) => {
  const upstream = await startServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const delay = Number(url.searchParams.get('delay') ?? 0);
    setTimeout(() => {
      res.statusCode = Number(url.searchParams.get('status') ?? 200);
      res.end('{}');
    }, delay);
  });
  t.teardown(() => upstream.close());
  const config = { plugins: { gateway: { responseTimes: { flushMs: 600000 } } } };
  // Our own data folder, so it outlives the first runtime.
  const dataDir = testFolder(t, 'gateway');
  const vela = await startTestRuntime({ plugins: ['gateway'], config: config as never, dataDir });
  const fast = await createMapping(vela, { context: '/proxy/fast/a', url: upstream.url });
  const slow = await createMapping(vela, { context: '/proxy/slow/a', url: upstream.url });
  const flaky = await createMapping(vela, { context: '/proxy/flaky/a', url: upstream.url });
  const down = await createMapping(vela, { context: '/proxy/gone/a', url: `http://127.0.0.1:${await closedPort()}` });
  const idle = await createMapping(vela, { context: '/proxy/idle/a', url: upstream.url });
  const token = (await createApp(vela)).accessToken!;
  const call = async (path: string, auth = true) =>
    (await vela.fetch('gateway', path, { headers: auth ? { authorization: `Bearer ${token}` } : {} })).arrayBuffer();

  for (let i = 0; i < 30; i++) await call('/fast/a/x');
  await Promise.all(Array.from({ length: 10 }, () => call('/slow/a/x?delay=150')));
  for (let i = 0; i < 10; i++) await call(`/flaky/a/x?status=${i < 4 ? 500 : 200}`);
  for (let i = 0; i < 2; i++) await call('/gone/a/x');
  for (let i = 0; i < 5; i++) await call('/fast/a/x', false); // refused at the gateway: not an upstream time

  const report = (await admin(vela, 'GET', '/api/v2/access/response_time')).body as Report;
  const byId = new Map(report.mappings.map((m) => [m.mappingId, m]));
  t.is(report.window.bucketSeconds, 60);
  t.is(Date.parse(report.window.to) - Date.parse(report.window.from), 3600_000);
  t.like(byId.get(fast.id), { name: 'fast', context: '/proxy/fast/a', count: 30, errorRate: 0 });
  const slowRow = byId.get(slow.id)!;
  t.is(slowRow.count, 10);
  t.true(slowRow.p50Ms! >= 145, `p50 of the 150 ms upstream was ${slowRow.p50Ms}`);
  // Orders, not timings: a loaded machine slows both, but the instant upstream stays ahead of the 150 ms one.
  t.true(byId.get(fast.id)!.p50Ms! < slowRow.p50Ms!);
  t.true(slowRow.p50Ms! <= slowRow.p95Ms! && slowRow.p95Ms! <= slowRow.p99Ms!);
  t.like(byId.get(flaky.id), { count: 10, errorRate: 0.4 });
  t.like(byId.get(down.id), { count: 2, errorRate: 1 });
  t.like(byId.get(idle.id), { count: 0, errorRate: 0, p50Ms: null, p99Ms: null });
  for (const m of report.mappings) {
    t.true(m.series.length >= 60 && m.series.length <= 61);
    t.is(
      m.series.reduce((sum, p) => sum + p.count, 0),
      m.count,
      `${m.name}: the series adds up to the count`,
    );
  }
  t.is(slowRow.series.findLast((p) => p.count > 0)!.count, 10, 'the requests sit in the current minute');
  await vela.stop(); // flushes what is left

  const again = await startTestRuntime({ plugins: ['gateway'], config: config as never, dataDir });
  t.teardown(() => again.stop());
  const after = (await admin(again, 'GET', '/api/v2/access/response_time?window=600')).body as Report;
  t.deepEqual(
    after.mappings.map((m) => [m.name, m.count]),
    [
      ['fast', 30],
      ['flaky', 10],
      ['gone', 2],
      ['idle', 0],
      ['slow', 10],
    ],
  );
  t.is(after.window.bucketSeconds, 60);

  for (const bad of ['window=10', 'window=abc', 'window=99999999', 'other=1']) {
    const res = await admin(again, 'GET', `/api/v2/access/response_time?${bad}`);
    t.is(res.status, 400, bad);
    t.is(res.body.error, 'validation_failed');
  }
  await admin(again, 'DELETE', `/api/v2/mapping/${fast.id}`);
  t.false(
    ((await admin(again, 'GET', '/api/v2/access/response_time')).body as Report).mappings.some(
      (m) => m.mappingId === fast.id,
    ),
  );
});

test('a long window uses wider buckets and still about 60 points', async (t) => {
  const vela = await startTestRuntime({ plugins: ['gateway'] });
  t.teardown(() => vela.stop());
  await createMapping(vela, { context: '/proxy/w/a', url: 'http://127.0.0.1:9/' });
  const report = (await admin(vela, 'GET', '/api/v2/access/response_time?window=86400')).body as Report;
  t.is(report.window.bucketSeconds, 1440);
  t.true(report.mappings[0]!.series.length >= 60 && report.mappings[0]!.series.length <= 61);
});

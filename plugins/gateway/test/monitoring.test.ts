import test from 'ava';
import type { UpstreamStatusChange } from '../api.js';
import { admin, closedPort, createMapping, eventually, startGateway, startServer } from './fixtures.js';

interface Status {
  mappingId: string;
  status: string;
  latencyMs: number | null;
  lastCheckedAt: string | null;
  lastChangeAt: string | null;
  message: string;
}

test('health checks set UP/DOWN with latency and last change, and fire the hook on every change only', async (t) => {
  let healthy = true;
  const upstream = await startServer((req, res) => {
    res.statusCode = req.url === '/health' && !healthy ? 503 : 200;
    res.end();
  });
  t.teardown(() => upstream.close());
  // The scheduled job stays out of this test's way (next run: a New Year's midnight).
  const vela = await startGateway({ monitoring: { cron: '0 0 1 1 *' } });
  t.teardown(() => vela.stop());
  const changes: UpstreamStatusChange[] = [];
  vela.runtime.hookBus.get('gateway.upstreamStatusChanged').tapPromise('test-alerts', async (change) => {
    changes.push(change);
  });
  const checked = await createMapping(vela, {
    context: '/proxy/svc/a',
    url: `${upstream.url}/api/a`,
    healthCheckPath: '/health',
  });
  const headOnly = await createMapping(vela, { context: '/proxy/head/a', url: `${upstream.url}/api` });
  const dead = await createMapping(vela, { context: '/proxy/dead/a', url: `http://127.0.0.1:${await closedPort()}/` });

  const initial = (await admin(vela, 'GET', '/api/v2/monitoring')).body as Status[];
  t.deepEqual(
    initial.map((s) => s.status),
    ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'],
  );

  const first = new Map(
    ((await admin(vela, 'POST', '/api/v2/monitoring/check')).body as Status[]).map((s) => [s.mappingId, s]),
  );
  t.like(first.get(checked.id), { status: 'UP' });
  t.like(first.get(headOnly.id), { status: 'UP' });
  t.like(first.get(dead.id), { status: 'DOWN', latencyMs: null });
  t.regex(first.get(dead.id)!.message, /ECONNREFUSED/);
  t.true(first.get(checked.id)!.latencyMs! >= 0);
  t.is(first.get(checked.id)!.lastChangeAt, first.get(checked.id)!.lastCheckedAt);
  t.deepEqual(changes.map((c) => [c.name, c.from, c.to]).sort(), [
    ['dead', 'UNKNOWN', 'DOWN'],
    ['head', 'UNKNOWN', 'UP'],
    ['svc', 'UNKNOWN', 'UP'],
  ]);

  const second = new Map(
    ((await admin(vela, 'POST', '/api/v2/monitoring/check')).body as Status[]).map((s) => [s.mappingId, s]),
  );
  t.is(changes.length, 3, 'no change, no hook');
  t.is(second.get(checked.id)!.lastChangeAt, first.get(checked.id)!.lastChangeAt);

  healthy = false;
  const third = new Map(
    ((await admin(vela, 'POST', '/api/v2/monitoring/check')).body as Status[]).map((s) => [s.mappingId, s]),
  );
  t.like(third.get(checked.id), { status: 'DOWN' });
  t.regex(third.get(checked.id)!.message, /503/);
  t.like(third.get(headOnly.id), { status: 'UP' }, 'a HEAD of the URL does not look at /health');
  t.is(changes.length, 4);
  t.like(changes[3], { mappingId: checked.id, from: 'UP', to: 'DOWN', context: '/proxy/svc/a' });

  healthy = true;
  const together = await Promise.all([
    admin(vela, 'POST', '/api/v2/monitoring/check'),
    admin(vela, 'POST', '/api/v2/monitoring/check'),
  ]);
  t.true(together.every((r) => r.status === 200));
  t.is(changes.length, 5, 'two checks at once report the recovery once');
});

test('the scheduled job checks upstreams without being asked', async (t) => {
  const upstream = await startServer((_req, res) => res.end());
  t.teardown(() => upstream.close());
  const vela = await startGateway({ monitoring: { cron: '* * * * * *' } });
  t.teardown(() => vela.stop());
  const mapping = await createMapping(vela, { context: '/proxy/cron/a', url: upstream.url });
  await eventually(
    async () =>
      ((await admin(vela, 'GET', '/api/v2/monitoring')).body as Status[]).some(
        (s) => s.mappingId === mapping.id && s.status === 'UP',
      ),
    'the cron check',
  );
  const status = ((await admin(vela, 'GET', '/api/v2/monitoring')).body as Status[]).find(
    (s) => s.mappingId === mapping.id,
  )!;
  t.like(status, { status: 'UP', context: '/proxy/cron/a' });
  t.truthy(status.lastCheckedAt, 'checked by the job, not by a request');
});

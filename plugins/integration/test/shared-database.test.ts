import test from 'ava';
import { eventually, postgresReachable, startTestRuntime, type TestRuntime, testDatabase } from 'vela/testing';

// Two processes on one PostgreSQL database: an instance written through one is announced on the change feed, and
// the other reloads at once. The poll is off (pollMs 0), so only the notice can bring the change.

const pgTest = postgresReachable() ? test : test.skip;

async function admin(
  vela: TestRuntime,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await vela.fetch('search', path, {
    method,
    headers: { authorization: vela.adminAuth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

pgTest("processes sharing one database see each other's instances as soon as they are written", async (t) => {
  t.timeout(90_000);
  const pg = await testDatabase(t);
  const options = {
    plugins: ['integration'],
    databaseUrl: pg.url,
    config: { plugins: { integration: { pollMs: 0 } } },
  };
  const a = await startTestRuntime(options);
  t.teardown(() => a.stop());
  const b = await startTestRuntime(options);
  t.teardown(() => b.stop());

  const created = await admin(a, 'POST', '/api/integration', {
    id: 'shared',
    title: 'Shared',
    vendor: 'HTTP',
    endpoint: 'https://upstream.invalid/api',
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  await eventually(
    async () => (await admin(b, 'GET', '/api/integration/shared')).status === 200,
    'B to see the new instance',
    20_000,
  );

  t.is((await admin(b, 'PUT', '/api/integration/shared', { title: 'Renamed on B' })).status, 200);
  await eventually(
    async () => (await admin(a, 'GET', '/api/integration/shared')).body.title === 'Renamed on B',
    'A to see the new title',
    20_000,
  );

  t.is((await admin(a, 'DELETE', '/api/integration/shared')).status, 200);
  await eventually(
    async () => (await admin(b, 'GET', '/api/integration/shared')).status === 404,
    'B to see it gone',
    20_000,
  );
  t.deepEqual((await admin(b, 'GET', '/api/integration')).body, []);
});

import test, { type ExecutionContext } from 'ava';
import { createTestPostgres, postgresReachable, type TestRuntime } from 'vela/testing';
import { admin, startGateway } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

/** Ids in paths are refused before any lookup when they cannot be one; strings at their bounds are stored. */
async function checkBounds(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  for (const [method, path] of [
    ['GET', `/api/v2/app/${'a'.repeat(37)}`],
    ['PUT', `/api/v2/app/${'a'.repeat(37)}/gen_key`],
    ['DELETE', `/api/v2/app/${encodeURIComponent('../x')}`],
    ['GET', `/api/v2/mapping/${'m'.repeat(37)}`],
    ['DELETE', `/api/v2/mapping/${'m'.repeat(37)}`],
  ] as const) {
    const r = await admin(vela, method, path);
    t.is(r.status, 400, `${method} ${path}`);
    t.is(r.body.error, 'validation_failed');
    t.regex(r.body.message, /^path\.id /);
  }
  const mapping = await admin(vela, 'POST', '/api/v2/mapping', {
    context: `/proxy/${'n'.repeat(100)}/${'s'.repeat(600 - 108)}`,
    url: `http://127.0.0.1:9/${'u'.repeat(2000 - 20)}`,
    healthCheckPath: `/${'h'.repeat(999)}`,
  });
  t.is(mapping.status, 201, JSON.stringify(mapping.body).slice(0, 300));
  t.is((await admin(vela, 'GET', `/api/v2/mapping/${mapping.body.id}`)).status, 200);
  const tooLong = await admin(vela, 'POST', '/api/v2/mapping', { context: `/proxy/x/${'s'.repeat(600)}`, url: 'http://127.0.0.1:9/' });
  t.is(tooLong.status, 400);
  const app = await admin(vela, 'POST', '/api/v2/app', { name: 'a'.repeat(200), callbackUrls: [`https://example.com/${'c'.repeat(1970)}`] });
  t.is(app.status, 201, JSON.stringify(app.body).slice(0, 300));
  t.is((await admin(vela, 'POST', '/api/v2/app', { name: 'a'.repeat(201) })).status, 400);
}

test('gateway ids and strings are bounded on SQLite', async (t) => {
  const vela = await startGateway();
  t.teardown(() => vela.stop());
  await checkBounds(t, vela);
});

pgTest('gateway ids and strings are bounded on PostgreSQL (never a 500 from a varchar column)', async (t) => {
  const pg = await createTestPostgres();
  if (!pg) return t.fail('PostgreSQL refused to create a test database');
  t.teardown(() => pg.drop());
  const vela = await startGateway({}, { databaseUrl: pg.url });
  t.teardown(() => vela.stop());
  await checkBounds(t, vela);
});

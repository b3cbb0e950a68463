import test, { type ExecutionContext } from 'ava';
import { postgresReachable, type TestRuntime, testDatabase } from 'vela/testing';
import { admin, postForm, startGateway } from './fixtures.js';

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
  const tooLong = await admin(vela, 'POST', '/api/v2/mapping', {
    context: `/proxy/x/${'s'.repeat(600)}`,
    url: 'http://127.0.0.1:9/',
  });
  t.is(tooLong.status, 400);
  const app = await admin(vela, 'POST', '/api/v2/app', {
    name: 'a'.repeat(200),
    callbackUrls: [`https://example.com/${'c'.repeat(1970)}`],
  });
  t.is(app.status, 201, JSON.stringify(app.body).slice(0, 300));
  t.is((await admin(vela, 'POST', '/api/v2/app', { name: 'a'.repeat(201) })).status, 400);
  await checkNul(t, vela);
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * NUL (U+0000), which PostgreSQL cannot hold or compare, is a 400 naming the member, or wrong credentials: never a 500.
 */
async function checkNul(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  for (const [path, body, member] of [
    ['/api/v2/app', { name: 'a\u0000b' }, 'body.name'],
    ['/api/v2/app', { name: 'app', description: 'd\u0000' }, 'body.description'],
    ['/api/v2/app', { name: 'app', callbackUrls: ['https://example.com/\u0000'] }, 'body.callbackUrls[0]'],
    [
      '/api/v2/mapping',
      { context: '/proxy/nul', url: 'http://127.0.0.1:9/', description: 'd\u0000' },
      'body.description',
    ],
  ] as const) {
    const r = await admin(vela, 'POST', path, body);
    t.is(r.status, 400, `${path} ${JSON.stringify(body)}`);
    t.is(r.body.error, 'validation_failed');
    t.regex(r.body.message, new RegExp(`^${member.replace(/[[\]]/g, '\\$&')} must not contain the NUL character`));
  }
  t.is((await admin(vela, 'GET', '/api/v2/mapping')).body.length, 1, 'nothing refused was stored');
  for (const path of ['/api/v2/app', '/api/login']) {
    const r = await admin(vela, 'GET', path, undefined, { authorization: basic('ad\u0000min', 'x') });
    t.is(r.status, 401, `Basic with NUL on ${path}`);
  }
  const authorize = await vela.fetch('gateway', '/api/authorize?response_type=code&client_id=a%00b');
  t.is(authorize.status, 400);
  t.like(await authorize.json(), {
    error: 'invalid_request',
    message: 'client_id must not contain control characters',
  });
  const token = await postForm(vela, '/api/token', {
    grant_type: 'client_credentials',
    client_id: 'a\u0000b',
    client_secret: 'x',
  });
  t.is(token.status, 400);
  const viaBasic = await postForm(
    vela,
    '/api/token',
    { grant_type: 'client_credentials' },
    { authorization: basic('a%00b', 'x') },
  );
  t.like({ status: viaBasic.status, ...viaBasic.body }, { status: 400, error: 'invalid_request' });
  for (const endpoint of ['/api/revoke', '/api/introspect']) {
    const r = await postForm(vela, endpoint, { token: 't', client_id: 'a\u0000b', client_secret: 'x' });
    t.is(r.status, 400, endpoint);
  }
}

test('gateway ids and strings are bounded on SQLite', async (t) => {
  const vela = await startGateway();
  t.teardown(() => vela.stop());
  await checkBounds(t, vela);
});

pgTest('gateway ids and strings are bounded on PostgreSQL (never a 500 from a varchar column)', async (t) => {
  const pg = await testDatabase(t);
  const vela = await startGateway({}, { databaseUrl: pg.url });
  t.teardown(() => vela.stop());
  await checkBounds(t, vela);
});

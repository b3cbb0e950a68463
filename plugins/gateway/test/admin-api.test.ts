import test from 'ava';
import type { TestRuntime } from 'vela/testing';
import { admin, startGateway } from './fixtures.js';

let vela: TestRuntime;

test.before(async () => {
  vela = await startGateway();
});

test.after.always(async () => {
  await vela?.stop();
});

test('a mapping is created, listed, read, changed and deleted with the agreed JSON members', async (t) => {
  const created = await admin(vela, 'POST', '/api/v2/mapping', {
    context: '/proxy/crud/items/',
    url: 'http://127.0.0.1:9/base',
    description: 'items',
    healthCheckPath: '/health',
  });
  t.is(created.status, 201);
  const mapping = created.body;
  t.deepEqual(Object.keys(mapping).sort(), [
    'context',
    'createdAt',
    'description',
    'healthCheckPath',
    'id',
    'name',
    'timeoutMs',
    'updatedAt',
    'url',
  ]);
  t.like(mapping, {
    name: 'crud',
    context: '/proxy/crud/items',
    url: 'http://127.0.0.1:9/base',
    description: 'items',
    timeoutMs: 30000,
    healthCheckPath: '/health',
  });
  t.true((await admin(vela, 'GET', '/api/v2/mapping')).body.some((m: { id: string }) => m.id === mapping.id));
  t.deepEqual((await admin(vela, 'GET', `/api/v2/mapping/${mapping.id}`)).body, mapping);
  const changed = await admin(vela, 'PUT', `/api/v2/mapping/${mapping.id}`, {
    ...mapping,
    timeoutMs: 1500,
    healthCheckPath: null,
  });
  t.is(changed.status, 200);
  t.like(changed.body, {
    timeoutMs: 1500,
    healthCheckPath: null,
    context: '/proxy/crud/items',
    createdAt: mapping.createdAt,
  });
  t.deepEqual((await admin(vela, 'DELETE', `/api/v2/mapping/${mapping.id}`)).body, { deleted: true, id: mapping.id });
  const gone = await admin(vela, 'GET', `/api/v2/mapping/${mapping.id}`);
  t.is(gone.status, 404);
  t.is(gone.body.error, 'mapping_not_found');
  t.is((await admin(vela, 'PUT', `/api/v2/mapping/${mapping.id}`, { url: 'http://127.0.0.1:9/' })).status, 404);
  t.is((await admin(vela, 'DELETE', `/api/v2/mapping/${mapping.id}`)).status, 404);
});

test('invalid mapping members answer 400 naming the member; a duplicate context 409; nothing stored changes', async (t) => {
  const keep = await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/dup/a', url: 'http://127.0.0.1:9/' });
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ context: 'dup/a', url: 'http://127.0.0.1:9/' }, /^context must look like/],
    [{ context: '/proxy/', url: 'http://127.0.0.1:9/' }, /^context /],
    [{ context: '/proxy/api/x', url: 'http://127.0.0.1:9/' }, /^context must not use the mapping name "api"/],
    [{ context: '/proxy/ok/../x', url: 'http://127.0.0.1:9/' }, /^context must not contain/],
    [{ context: '/proxy/ok/x', url: 'not a url' }, /^url must be an absolute/],
    [{ context: '/proxy/ok/x', url: 'ftp://host/' }, /^url must use http or https/],
    [{ context: '/proxy/ok/x', url: 'http://u:p@host/' }, /^url must not carry/],
    [{ context: '/proxy/ok/x', url: 'http://host/', healthCheckPath: 'health' }, /^healthCheckPath must be a path/],
    [
      { context: '/proxy/ok/x', url: 'http://host/', healthCheckPath: '/\\other.example/health' },
      /^healthCheckPath must be a path/,
    ],
    [
      { context: '/proxy/ok/x', url: 'http://host/', healthCheckPath: '//other.example/health' },
      /^healthCheckPath must be a path/,
    ],
    [{ context: '/proxy/ok/x', url: 'http://host/', timeoutMs: 'soon' }, /timeoutMs/],
    [{ context: '/proxy/ok/x' }, /url/],
    [{ context: '/proxy/ok/x', url: 'http://host/', extra: 1 }, /extra/],
  ];
  for (const [body, message] of cases) {
    const res = await admin(vela, 'POST', '/api/v2/mapping', body);
    t.is(res.status, 400, JSON.stringify(body));
    t.regex(res.body.message, message, JSON.stringify(body));
  }
  const dup = await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/dup/a/', url: 'http://127.0.0.1:8/' });
  t.is(dup.status, 409);
  t.is(dup.body.error, 'mapping_exists');
  const other = await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/dup/b', url: 'http://127.0.0.1:9/' });
  t.is((await admin(vela, 'PUT', `/api/v2/mapping/${other.body.id}`, { context: '/proxy/dup/a' })).status, 409);
  t.is((await admin(vela, 'PUT', `/api/v2/mapping/${other.body.id}`, { url: 'gopher://x' })).status, 400);
  t.deepEqual((await admin(vela, 'GET', `/api/v2/mapping/${keep.body.id}`)).body, keep.body);
  t.is((await admin(vela, 'GET', `/api/v2/mapping/${other.body.id}`)).body.url, 'http://127.0.0.1:9/');
  const badJson = await vela.fetch('gateway', '/api/v2/mapping', {
    method: 'POST',
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
    body: '{"context":',
  });
  t.is(badJson.status, 400);
});

test('an app gets four distinct 32-hex credentials; gen_key, gen_token and accessTokens change only theirs', async (t) => {
  const created = await admin(vela, 'POST', '/api/v2/app', {
    name: 'Shop',
    description: 'd',
    callbackUrls: ['https://shop.example/cb'],
  });
  t.is(created.status, 201);
  const app = created.body;
  t.deepEqual(Object.keys(app).sort(), [
    'accessToken',
    'accessTokenSecret',
    'apiKey',
    'apiSecret',
    'callbackUrls',
    'createdAt',
    'description',
    'id',
    'name',
    'updatedAt',
  ]);
  const credentials = [app.apiKey, app.apiSecret, app.accessToken, app.accessTokenSecret];
  for (const c of credentials) t.regex(c, /^[0-9a-f]{32}$/);
  t.is(new Set(credentials).size, 4);
  const keyed = (await admin(vela, 'PUT', `/api/v2/app/${app.id}/gen_key`)).body;
  t.true(keyed.apiKey !== app.apiKey && keyed.apiSecret !== app.apiSecret);
  t.deepEqual([keyed.accessToken, keyed.accessTokenSecret], [app.accessToken, app.accessTokenSecret]);
  const tokened = (await admin(vela, 'PUT', `/api/v2/app/${app.id}/gen_token`)).body;
  t.true(tokened.accessToken !== app.accessToken && tokened.accessTokenSecret !== app.accessTokenSecret);
  t.is(tokened.apiKey, keyed.apiKey);
  const revoked = (await admin(vela, 'DELETE', `/api/v2/app/${app.id}/accessTokens`)).body;
  t.deepEqual([revoked.accessToken, revoked.accessTokenSecret], [null, null]);
  const renamed = await admin(vela, 'PUT', `/api/v2/app/${app.id}`, { ...revoked, name: 'Shop 2', callbackUrls: [] });
  t.like(renamed.body, { name: 'Shop 2', callbackUrls: [], apiKey: keyed.apiKey });
  t.is((await admin(vela, 'DELETE', `/api/v2/app/${app.id}`)).status, 200);
  for (const [method, path] of [
    ['GET', ''],
    ['PUT', '/gen_key'],
    ['PUT', '/gen_token'],
    ['DELETE', '/accessTokens'],
    ['DELETE', ''],
  ] as const) {
    const res = await admin(vela, method, `/api/v2/app/${app.id}${path}`);
    t.is(res.status, 404, `${method} ${path}`);
    t.is(res.body.error, 'app_not_found');
  }
});

test('invalid app members answer 400 naming the member', async (t) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /name/],
    [{ name: '' }, /name/],
    [{ name: 'x', callbackUrls: 'https://a' }, /callbackUrls/],
    [
      { name: 'x', callbackUrls: ['https://ok.example/', 'relative/path'] },
      /^callbackUrls\[1\] must be an absolute URL/,
    ],
    [{ name: 'x', callbackUrls: ['https://a.example/#frag'] }, /^callbackUrls\[0\] must not have a #fragment/],
    [{ name: 'x', callbackUrls: ['https://a.example/cb#'] }, /^callbackUrls\[0\] must not have a #fragment/],
    [{ name: 'x', callbackUrls: [' https://a.example/cb'] }, /^callbackUrls\[0\] must not contain spaces/],
    [{ name: 'x', callbackUrls: ['https://a.example/c\tb'] }, /^callbackUrls\[0\] must not contain spaces/],
    [{ name: 'x', callbackUrls: ['javascript:alert(1)'] }, /^callbackUrls\[0\] must not use/],
  ];
  for (const [body, message] of cases) {
    const res = await admin(vela, 'POST', '/api/v2/app', body);
    t.is(res.status, 400, JSON.stringify(body));
    t.regex(res.body.message, message, JSON.stringify(body));
  }
});

test('the admin API needs the administrator: Basic, or the session cookie with its CSRF token on writes', async (t) => {
  const anonymous = await vela.fetch('gateway', '/api/v2/mapping');
  t.is(anonymous.status, 401);
  t.like(await anonymous.json(), { error: 'unauthorized' });
  t.regex(anonymous.headers.get('www-authenticate')!, /^Basic /);
  const wrong = await vela.fetch('gateway', '/api/v2/app', {
    headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
  });
  t.is(wrong.status, 401);
  for (const path of ['/api/v2/app', '/api/v2/access/response_time', '/api/v2/monitoring'])
    t.is((await vela.fetch('gateway', path)).status, 401, path);

  const login = await vela.fetch('gateway', '/api/login', { headers: { authorization: vela.adminAuth } });
  t.is(login.status, 200);
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  t.is((await vela.fetch('gateway', '/api/v2/app', { headers: { cookie } })).status, 200);
  const body = JSON.stringify({ name: 'via cookie' });
  const noCsrf = await vela.fetch('gateway', '/api/v2/app', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body,
  });
  t.is(noCsrf.status, 403);
  t.like(await noCsrf.json(), { error: 'csrf_token_invalid' });
  t.is(
    (
      await vela.fetch('gateway', '/api/v2/app', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body,
      })
    ).status,
    201,
  );
});

test('nothing secret reaches the log', async (t) => {
  const app = (
    await admin(vela, 'POST', '/api/v2/app', { name: 'log probe', callbackUrls: ['https://example.com/cb'] })
  ).body;
  await vela.fetch(
    'gateway',
    `/api/authorize?response_type=token&client_id=${app.apiKey}&redirect_uri=https://example.com/cb`,
    { redirect: 'manual' },
  );
  const text = JSON.stringify(vela.logs);
  for (const secret of [app.apiSecret, app.accessToken, app.accessTokenSecret, 'test-admin-password'])
    t.false(text.includes(secret));
});

test('the OpenAPI description lists the admin and OAuth2 endpoints with their schemas', async (t) => {
  const doc = (await (await vela.fetch('gateway', '/v3/api-docs')).json()) as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  for (const path of [
    '/api/v2/mapping',
    '/api/v2/mapping/{id}',
    '/api/v2/app/{id}/gen_key',
    '/api/v2/app/{id}/accessTokens',
    '/api/v2/access/response_time',
    '/api/v2/monitoring',
    '/api/authorize',
    '/api/token',
    '/api/revoke',
    '/api/introspect',
    '/.well-known/oauth-authorization-server',
    '/api/login',
  ]) {
    t.truthy(doc.paths[path], path);
  }
  t.truthy(doc.paths['/api/v2/mapping']!.post!.requestBody);
});

import test from 'ava';
import { loadConfig } from '../../runtime/config/load-config.js';
import { manifest, startTestRuntime, type TestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

// One path with a public GET and an admin PUT, and a key route: CORS follows each route's declared access.
const PLUGIN = `
export default { register(ctx) {
  ctx.access.acceptKeys((key) => (key === 'good-key' ? { username: 'robot', via: 'key' } : null));
  ctx.routes((r) => {
    r.get('/api/items', { access: 'public' }, (_req, res) => res.json({ items: [] }));
    r.put('/api/items', { access: 'admin' }, (_req, res) => res.json({ replaced: true }));
    r.get('/api/items/mine', { access: 'key' }, (_req, res) => res.json({ mine: [] }));
  });
} };`;

const SHOP = 'https://shop.example';
const ADMIN_UI = 'https://admin.example:8443';
const EVIL = 'http://127.0.0.1:9999';

let closed: TestRuntime;
let open: TestRuntime;

test.before(async () => {
  const loaderPath = await writePlugins([{ manifest: manifest('items'), files: { 'index.ts': PLUGIN } }]);
  [closed, open] = await Promise.all([
    startTestRuntime({ loaderPath: [loaderPath] }),
    startTestRuntime({
      loaderPath: [loaderPath],
      config: { services: { search: { cors: { origins: [SHOP], credentialedOrigins: [ADMIN_UI] } } } },
    }),
  ]);
});

test.after.always(async () => {
  await closed?.stop();
  await open?.stop();
});

const preflight = (vela: TestRuntime, path: string, origin: string, method: string, headers = 'content-type') =>
  vela.fetch('search', path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const allowOrigin = (res: Response) => res.headers.get('access-control-allow-origin');
const allowCredentials = (res: Response) => res.headers.get('access-control-allow-credentials');

test('by default public routes are open to any origin without credentials', async (t) => {
  const simple = await closed.fetch('search', '/api/items', { headers: { origin: EVIL } });
  t.is(simple.status, 200);
  t.is(allowOrigin(simple), '*');
  t.is(allowCredentials(simple), null);
  const pre = await preflight(closed, '/api/items', EVIL, 'GET', 'key');
  t.is(pre.status, 204);
  t.is(allowOrigin(pre), '*');
  t.is(pre.headers.get('access-control-allow-methods'), 'GET', 'the preflight answers for the method asked only');
  t.regex(pre.headers.get('access-control-allow-headers') ?? '', /Key/);
  t.is(allowOrigin(await closed.fetch('search', '/health', { headers: { origin: EVIL } })), '*');
});

test('by default key and admin routes give no other origin access, even with valid credentials', async (t) => {
  for (const [method, path] of [
    ['PUT', '/api/items'],
    ['GET', '/api/items/mine'],
  ] as const) {
    const pre = await preflight(closed, path, EVIL, method, 'authorization,key');
    t.is(pre.status, 403, `${method} ${path}`);
    t.is(allowOrigin(pre), null);
    t.regex(((await pre.json()) as { message: string }).message, /services\.search\.cors\.credentialedOrigins/);
  }
  const admin = await closed.fetch('search', '/api/items', {
    method: 'PUT',
    headers: { origin: EVIL, authorization: closed.adminAuth },
  });
  t.is(admin.status, 200, 'CORS does not refuse the request itself; the browser keeps the answer from the page');
  t.is(allowOrigin(admin), null);
  const keyed = await closed.fetch('search', '/api/items/mine', { headers: { origin: EVIL, key: 'good-key' } });
  t.is(keyed.status, 200);
  t.is(allowOrigin(keyed), null);
  const refused = await closed.fetch('search', '/api/items/mine', { headers: { origin: EVIL } });
  t.is(refused.status, 401);
  t.is(allowOrigin(refused), null);
});

test('configured: public origins read public routes only; credentialed origins read every route with credentials', async (t) => {
  const shopGet = await open.fetch('search', '/api/items', { headers: { origin: SHOP } });
  t.is(allowOrigin(shopGet), SHOP);
  t.is(allowCredentials(shopGet), null);
  t.regex(shopGet.headers.get('vary') ?? '', /Origin/);
  t.is((await preflight(open, '/api/items', SHOP, 'GET')).status, 204);
  t.is(
    (await preflight(open, '/api/items', SHOP, 'PUT')).status,
    403,
    'the admin PUT on the same path is not the public GET',
  );
  t.is(
    allowOrigin(await open.fetch('search', '/api/items/mine', { headers: { origin: SHOP, key: 'good-key' } })),
    null,
  );
  t.is(
    allowOrigin(await open.fetch('search', '/api/items', { headers: { origin: EVIL } })),
    null,
    'an origin in no list',
  );
  t.is((await preflight(open, '/api/items', EVIL, 'GET')).status, 403);

  const pre = await preflight(open, '/api/items', ADMIN_UI, 'PUT', 'content-type,x-csrf-token');
  t.is(pre.status, 204);
  t.is(allowOrigin(pre), ADMIN_UI);
  t.is(allowCredentials(pre), 'true');
  t.is(pre.headers.get('access-control-allow-methods'), 'PUT');
  t.is(pre.headers.get('access-control-max-age'), '600');

  // The console session from another origin: sign in with Basic, then write with the cookie and CSRF token.
  const login = await open.fetch('search', '/api/login', {
    headers: { origin: ADMIN_UI, authorization: open.adminAuth },
  });
  t.is(allowOrigin(login), ADMIN_UI);
  t.is(allowCredentials(login), 'true');
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const put = await open.fetch('search', '/api/items', {
    method: 'PUT',
    headers: { origin: ADMIN_UI, cookie, 'x-csrf-token': csrfToken },
  });
  t.is(put.status, 200);
  t.is(allowOrigin(put), ADMIN_UI);
  t.is(allowCredentials(put), 'true');
  const keyed = await open.fetch('search', '/api/items/mine', { headers: { origin: ADMIN_UI, key: 'good-key' } });
  t.is(allowOrigin(keyed), ADMIN_UI);
});

test('a preflight for a method left out of cors.methods, or for a path no route serves, allows nothing', async (t) => {
  const vela = await startTestRuntime({
    loaderPath: [await writePlugins([{ manifest: manifest('items'), files: { 'index.ts': PLUGIN } }])],
    config: { services: { search: { cors: { credentialedOrigins: [ADMIN_UI], methods: ['GET', 'POST'] } } } },
  });
  t.teardown(() => vela.stop());
  t.is((await preflight(vela, '/api/items', ADMIN_UI, 'PUT')).status, 403);
  t.is((await preflight(vela, '/api/items', ADMIN_UI, 'GET')).status, 204);
  const nowhere = await preflight(vela, '/api/nothing-here', ADMIN_UI, 'GET');
  t.not(nowhere.status, 204);
  t.is(allowOrigin(nowhere), null);
});

test('credentialed origins must be exact origins: "*", paths and other schemes are refused at start', (t) => {
  const load = (cors: Record<string, unknown>) => () =>
    loadConfig({ env: {}, overrides: { services: { search: { port: 0, cors } } } as never });
  t.notThrows(load({ origins: ['*', 'https://a.example'], credentialedOrigins: ['http://localhost:3000'] }));
  for (const bad of [['*'], ['https://a.example/'], ['null'], ['file://x']]) {
    t.throws(load({ credentialedOrigins: bad }), { message: /credentialedOrigins/ }, JSON.stringify(bad));
  }
  t.throws(load({ origins: ['https://a.example/app'] }), { message: /origins/ });
});

import test from 'ava';
import { manifest, startTestRuntime, type TestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

// Two plugins on one service: `keys` accepts one API key; `notes` declares one route of each access level and
// relies on the runtime (and on the other plugin's keys) for all of it.
let vela: TestRuntime;

test.before(async () => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('keys'),
      files: {
        'index.ts': `export default { register(ctx) { ctx.access.acceptKeys((key) => (key === 'good-key' ? { username: 'robot', via: 'key', tokenId: 't1' } : null)); } };`,
      },
    },
    {
      manifest: manifest('notes'),
      files: {
        'index.ts': `
          import { principalOf } from 'vela/plugin';
          const who = (res) => principalOf(res) ?? { username: null, via: null };
          export default { register(ctx) {
            ctx.routes((r) => {
              r.get('/notes/open', { access: 'public' }, (_q, res) => res.json(who(res)));
              r.get('/notes/keyed', { access: 'key' }, (_q, res) => res.json(who(res)));
              r.post('/notes/keyed', { access: 'key', body: { type: 'object' } }, (_q, res) => res.json(who(res)));
              r.get('/notes/admin', { access: 'admin' }, (_q, res) => res.json(who(res)));
            });
          } };`,
      },
    },
  ]);
  vela = await startTestRuntime({ loaderPath: [loaderPath] });
});
test.after.always(() => vela?.stop());

const get = async (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => {
  const res = await vela.fetch('search', path, {
    ...init,
    headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    body: (await res.json()) as Record<string, unknown>,
  };
};

test('a public route answers anyone, and knows the caller when credentials come with the request', async (t) => {
  t.like(await get('/notes/open'), { status: 200, body: { username: null } });
  t.like(await get('/notes/open', { key: 'good-key' }), { status: 200, body: { username: 'robot', via: 'key' } });
  t.like(await get('/notes/open', { authorization: vela.adminAuth }), {
    status: 200,
    body: { username: 'admin', via: 'basic' },
  });
  t.like(
    await get('/notes/open', { key: 'wrong' }),
    { status: 200, body: { username: null } },
    'a wrong key on a public route is not refused',
  );
});

test('a key route takes a key another plugin of the service accepts, or the administrator; nothing else', async (t) => {
  t.like(await get('/notes/keyed', { key: 'good-key' }), { status: 200, body: { username: 'robot' } });
  t.like(await get('/notes/keyed', { authorization: vela.adminAuth }), { status: 200, body: { username: 'admin' } });
  const none = await get('/notes/keyed');
  t.like(none, { status: 401, body: { error: 'unauthorized' } });
  t.regex(String(none.body.message), /needs an API token in the Key header/);
  t.regex(none.challenge ?? '', /^Basic realm="Vela"/);
  t.like(await get('/notes/keyed', { key: 'wrong' }), {
    status: 401,
    body: { message: 'the Key header does not match any API token' },
  });
});

test('Authorization: Bearer carries an API key as the Key header does; a Bearer value no plugin knows is a 401', async (t) => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  t.like(await get('/notes/keyed', bearer('good-key')), { status: 200, body: { username: 'robot', via: 'key' } });
  t.like(await get('/notes/keyed', { authorization: 'bearer   good-key' }), { status: 200, body: { via: 'key' } });
  t.like(await get('/notes/open', bearer('good-key')), { status: 200, body: { username: 'robot' } });
  const wrong = await get('/notes/keyed', bearer('wrong-key'));
  t.like(wrong, { status: 401, body: { error: 'unauthorized' } });
  t.false(JSON.stringify(wrong.body).includes('wrong-key'), 'the token is not echoed');
  t.like(await get('/notes/keyed', { key: 'wrong', ...bearer('good-key') }), { status: 401 }, 'a Key header decides');
  t.like(await get('/notes/admin', bearer('good-key')), { status: 403, body: { error: 'forbidden' } });
  t.like(await get('/notes/open', bearer('wrong-key')), { status: 200, body: { username: null } });
});

test('an admin route takes the administrator only: an API key is forbidden', async (t) => {
  t.like(await get('/notes/admin', { authorization: vela.adminAuth }), {
    status: 200,
    body: { username: 'admin', via: 'basic' },
  });
  t.like(await get('/notes/admin', { key: 'good-key' }), { status: 403, body: { error: 'forbidden' } });
  t.like(await get('/notes/admin'), { status: 401, body: { error: 'unauthorized' } });
  const wrong = `Basic ${Buffer.from('admin:nope').toString('base64')}`;
  t.like(await get('/notes/admin', { authorization: wrong }), {
    status: 401,
    body: { message: 'the credentials in the Authorization header are not valid' },
  });
});

test('the runtime console session opens key and admin routes: writes need its CSRF token, and the body is not read before access passes', async (t) => {
  const login = await vela.fetch('search', '/api/login', { headers: { authorization: vela.adminAuth } });
  t.is(login.status, 200);
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  t.like(await get('/notes/admin', { cookie }), { status: 200, body: { via: 'session' } });
  t.like(await get('/notes/keyed', { cookie }, { method: 'POST', body: '{}' }), {
    status: 403,
    body: { error: 'csrf_token_invalid' },
  });
  t.like(await get('/notes/keyed', { cookie, 'x-csrf-token': csrfToken }, { method: 'POST', body: '{}' }), {
    status: 200,
    body: { via: 'session' },
  });
  t.like(
    await get('/notes/keyed', {}, { method: 'POST', body: '{not json' }),
    { status: 401 },
    'refused before its invalid body is parsed',
  );
});

test('a path no route serves is a 404 with or without credentials, never a Basic challenge', async (t) => {
  for (const headers of [{}, { key: 'good-key' }, { authorization: vela.adminAuth }] as Array<Record<string, string>>) {
    const missing = await get('/notes/missing', headers);
    t.like(missing, { status: 404, body: { error: 'not_found' } });
    t.is(missing.challenge, null);
  }
});

test('each operation of the OpenAPI document carries the security its access declares', async (t) => {
  const doc = (await (await vela.fetch('search', '/v3/api-docs')).json()) as {
    paths: Record<string, Record<string, { security?: unknown }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  t.deepEqual(doc.paths['/notes/open']!.get!.security, []);
  t.deepEqual(doc.paths['/notes/keyed']!.get!.security, [{ Key: [] }, { Bearer: [] }, { Basic: [] }]);
  t.deepEqual(doc.paths['/notes/admin']!.get!.security, [{ Basic: [] }]);
  t.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['Basic', 'Bearer', 'Key']);
});

test('a route without its access, start and stop beside register, or a register that returns something else stop the start by name', async (t) => {
  const cases: Array<[string, RegExp]> = [
    [
      `export default { register(ctx) { ctx.routes((r) => r.get('/x', { summary: 'no access' }, (_q, res) => res.json({}))); } };`,
      /mounts GET \/x without its access: the route spec needs access 'public', 'key' or 'admin', got nothing/,
    ],
    [
      'export default { register() {}, async start() {} };',
      /start and stop belong in the object register\(ctx\) returns/,
    ],
    [
      'export default { register: () => ({ start() {}, open() {} }) };',
      /register\(\) must return nothing or \{ start\?\(\), stop\?\(\) \}/,
    ],
    ['export default { register: async () => ({}) };', /register\(\) must be synchronous/],
  ];
  for (const [source, message] of cases) {
    const loaderPath = await writePlugins([{ manifest: manifest('odd'), files: { 'index.ts': source } }]);
    const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
    t.regex(error?.message ?? '', message, source);
  }
});

test('an API key reaches a key route only with the scope the route names (admin covers all); the administrator needs none', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('scoped'),
      files: {
        'index.ts': `export default { register(ctx) {
          ctx.access.acceptKeys((key) => ({ 'reader-key': ['search'], 'admin-key': ['admin'], 'plain-key': undefined })[key] !== undefined || key === 'plain-key'
            ? { username: key, via: 'key', scopes: ({ 'reader-key': ['search'], 'admin-key': ['admin'] })[key] }
            : null);
          ctx.routes((r) => {
            r.get('/scoped/read', { access: 'key', scope: 'search' }, (_q, res) => res.json({ ok: true }));
            r.post('/scoped/write', { access: 'key' }, (_q, res) => res.json({ ok: true }));
          });
        } };`,
      },
    },
  ]);
  const scoped = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => scoped.stop());
  const call = async (method: string, path: string, headers: Record<string, string>) =>
    (await scoped.fetch('search', path, { method, headers })).status;
  t.is(await call('GET', '/scoped/read', { key: 'reader-key' }), 200);
  t.is(await call('POST', '/scoped/write', { key: 'reader-key' }), 403, 'a route without a scope needs admin');
  const refused = await scoped.fetch('search', '/scoped/write', { method: 'POST', headers: { key: 'reader-key' } });
  t.like(await refused.json(), {
    error: 'insufficient_scope',
    message: 'this endpoint needs an API token with the scope "admin"; this one has "search"',
  });
  t.is(await call('POST', '/scoped/write', { key: 'admin-key' }), 200);
  t.is(await call('GET', '/scoped/read', { key: 'admin-key' }), 200);
  t.is(await call('POST', '/scoped/write', { key: 'plain-key' }), 200, 'a key without scopes is not limited');
  t.is(await call('POST', '/scoped/write', { authorization: scoped.adminAuth }), 200);
  const doc = (await (await scoped.fetch('search', '/v3/api-docs')).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  t.is(doc.paths['/scoped/read']!.get!['x-token-scope'], 'search');
  t.is(doc.paths['/scoped/write']!.post!['x-token-scope'], 'admin');
});

import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, makeDocs } from './fixtures.js';

let vela: TestRuntime;
let key: string;

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search', 'graphql'] });
  await createSite(vela);
  await importDocs(vela, makeDocs(20));
  const created = await vela.fetch('search', '/api/dev/token', {
    method: 'POST',
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'CI', description: 'tests', scopes: ['admin'] }),
  });
  key = ((await created.json()) as { token: string }).token;
});
test.after.always(() => vela?.stop());

const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  vela.fetch('search', path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The spec's public list: these answer without any credential (never 401). */
const PUBLIC: Array<[string, string, unknown?]> = [
  ['GET', '/api/sn/Sample/search?q=*&_setlocale=en_US'],
  ['POST', '/api/sn/Sample/search?q=*&_setlocale=en_US', {}],
  ['GET', '/api/sn/Sample/search/locales'],
  ['POST', '/graphql', { query: '{ siteNames }' }],
  ['GET', '/health'],
  ['GET', '/v3/api-docs'],
  ['GET', '/sn/Sample?q=*&_setlocale=en_US'],
  ['GET', '/api/v2/guest/sn'],
  ['GET', '/api/v2/guest/sn/Sample/search?q=*&_setlocale=en_US'],
];

/** Everything else: administration, import, tokens. */
const PROTECTED: Array<[string, string, unknown?]> = [
  ['GET', '/api/sn'],
  ['POST', '/api/sn', { name: 'Other' }],
  ['GET', '/api/sn/Sample'],
  ['PUT', '/api/sn/Sample', { description: 'x' }],
  ['GET', '/api/sn/Sample/monitoring'],
  ['GET', '/api/sn/Sample/export'],
  ['GET', '/api/sn/export'],
  ['GET', '/api/sn/Sample/field'],
  ['POST', '/api/sn/Sample/field', { name: 'extra' }],
  ['POST', '/api/sn/import', { turingDocuments: [] }],
  ['POST', '/api/sn/deindex', { turingDocuments: [] }],
  ['GET', '/api/dev/token'],
  ['POST', '/api/dev/token', { title: 't' }],
  ['POST', '/api/logout', {}],
];

test('the public endpoints answer without a Key, and with one', async (t) => {
  for (const [method, path, body] of PUBLIC) {
    const anonymous = await call(method, path, {}, body);
    t.not(anonymous.status, 401, `${method} ${path} without a key`);
    t.true(anonymous.status < 400, `${method} ${path}: ${anonymous.status}`);
    const withKey = await call(method, path, { key }, body);
    t.true(withKey.status < 400, `${method} ${path} with a key: ${withKey.status}`);
  }
});

test('every other endpoint answers 401 JSON without a valid Key, and serves it with one', async (t) => {
  for (const [method, path, body] of PROTECTED) {
    for (const headers of [{}, { key: 'not-a-token' }] as Array<Record<string, string>>) {
      const refused = await call(method, path, headers, body);
      t.is(refused.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
      const error = (await refused.json()) as { error: string; message: string };
      t.is(error.error, 'unauthorized');
      t.regex(
        error.message,
        'key' in headers ? /does not match any API token/ : /needs an API token in the Key header/,
      );
    }
    const allowed = await call(method, path, { key }, body);
    t.not(allowed.status, 401, `${method} ${path} with the key`);
    t.not(allowed.status, 403, `${method} ${path} with the key`);
  }
});

test("the administrator's Basic credentials open protected endpoints; wrong ones do not", async (t) => {
  t.is((await call('GET', '/api/sn', { authorization: vela.adminAuth })).status, 200);
  const wrong = await call('GET', '/api/sn', {
    authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}`,
  });
  t.is(wrong.status, 401);
  t.regex(wrong.headers.get('www-authenticate') ?? '', /^Basic realm="Vela"/);
});

test('tokens: the value is shown once, stored hashed, listed by hint, and revocation takes effect at once', async (t) => {
  const created = await call('POST', '/api/dev/token', { key }, { title: 'temp', description: 'short-lived' });
  t.is(created.status, 201);
  const token = (await created.json()) as { id: string; token: string; tokenHint: string; createdBy: string };
  t.regex(token.token, /^[\w-]{32}$/);
  t.is(token.tokenHint, token.token.slice(0, 6));
  t.is(token.createdBy, 'admin');
  const listed = (await (await call('GET', '/api/dev/token', { key })).json()) as Array<Record<string, unknown>>;
  t.false(JSON.stringify(listed).includes(token.token), 'the value is never shown again');
  const row = await vela.runtime.db('search_api_tokens').where({ id: token.id }).first();
  t.false(JSON.stringify(row).includes(token.token), 'only a hash is stored');
  t.is((await call('GET', '/api/sn', { key: token.token })).status, 200);
  const renamed = await call('PUT', `/api/dev/token/${token.id}`, { key }, { title: 'renamed' });
  t.is(((await renamed.json()) as { title: string }).title, 'renamed');
  t.is((await call('DELETE', `/api/dev/token/${token.id}`, { key })).status, 200);
  t.is((await call('GET', '/api/sn', { key: token.token })).status, 401);
  t.is((await call('GET', `/api/dev/token/${token.id}`, { key })).status, 404);
});

test('console sign-in: GET /api/login with Basic sets a session cookie; cookie writes need the CSRF token', async (t) => {
  t.is((await call('GET', '/api/login')).status, 401);
  const login = await call('GET', '/api/login', { authorization: vela.adminAuth });
  t.is(login.status, 200);
  const session = (await login.json()) as { username: string; csrfToken: string };
  t.is(session.username, 'admin');
  const setCookie = login.headers.get('set-cookie')!;
  t.regex(setCookie, /^vela_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
  const cookie = setCookie.split(';')[0]!;
  t.is((await call('GET', '/api/sn', { cookie })).status, 200, 'reads with the cookie');
  const noCsrf = await call('POST', '/api/sn/Sample/field', { cookie }, { name: 'csrf_probe' });
  t.is(noCsrf.status, 403);
  t.is(((await noCsrf.json()) as { error: string }).error, 'csrf_token_invalid');
  t.is(
    (await call('POST', '/api/sn/Sample/field', { cookie, 'x-csrf-token': session.csrfToken }, { name: 'csrf_probe' }))
      .status,
    201,
  );
  const again = (await (await call('GET', '/api/login', { cookie })).json()) as { username: string; csrfToken: string };
  t.deepEqual([again.username, again.csrfToken], ['admin', session.csrfToken], 'the session answers who is signed in');
  t.is((await call('POST', '/api/logout', { cookie, 'x-csrf-token': session.csrfToken }, {})).status, 200);
  t.is((await call('GET', '/api/sn', { cookie })).status, 401, 'the session is gone');
});

test('a path or method no route serves answers 404 JSON with or without credentials, never a 401: access is declared per route', async (t) => {
  const unserved: Array<[string, string, unknown?]> = [
    ['GET', '/api/sn/Sample/chat?q=x'],
    ['POST', '/api/genai/chat', {}],
    ['GET', '/api/v2/guest/anything'],
    ['DELETE', '/api/sn/Sample/search'],
    ['PUT', '/api/sn/Sample/search', {}],
    ['PUT', '/graphql', {}],
    ['POST', '/api/login', {}],
    ['POST', '/sn/Sample', {}],
    ['GET', '/nowhere'],
  ];
  for (const [method, path, body] of unserved) {
    for (const headers of [{}, { key }, { key: 'not-a-token' }] as Array<Record<string, string>>) {
      const r = await call(method, path, headers, body);
      t.is(r.status, 404, `${method} ${path} ${JSON.stringify(headers)}`);
      t.is(((await r.json()) as { error: string }).error, 'not_found', `${method} ${path}`);
      t.is(r.headers.get('www-authenticate'), null, 'no Basic challenge for a browser to pop up');
    }
  }
});

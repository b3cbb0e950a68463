import test from 'ava';
import { setCookie, TEST_ADMIN, type TestRuntime } from 'vela/testing';
import { openSignIn, postSignIn, signIn } from './console-sign-in.js';
import { startGateway } from './fixtures.js';

let vela: TestRuntime;

test.before(async () => {
  vela = await startGateway();
});
test.after.always(async () => {
  await vela?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  vela.fetch('gateway', path, { redirect: 'manual', headers });

const AS_JSON = { accept: 'application/json' };
const ADMIN = { username: TEST_ADMIN.user, password: TEST_ADMIN.password };

/** Send the sign-in form of `page` (a sign-in page opened before) with `fields`, its CSRF cookie and field. */
const submit = (
  page: { cookie: string; csrf: string },
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) => postSignIn(vela, { ...fields, csrf: page.csrf }, { cookie: page.cookie, ...headers });

const PAGES = [
  '/console/dashboard',
  '/console/mapping',
  '/console/mapping/new',
  '/console/mapping/some-id',
  '/console/app',
  '/console/app/new',
  '/console/app/some-id',
  '/console/app/some-id/keys',
];

test('every console page sends a browser without a session to sign-in, naming the page to come back to', async (t) => {
  for (const path of PAGES) {
    const res = await get(`${path}?tab=1`);
    t.is(res.status, 302, path);
    t.is(res.headers.get('location'), `/console/login?next=${encodeURIComponent(`${path}?tab=1`)}`, path);
  }
  for (const path of ['/', '/console', '/console/']) {
    const res = await get(path);
    t.is(res.status, 302);
    t.is(res.headers.get('location'), '/console/dashboard');
  }
});

test('a stale or foreign session cookie is no session', async (t) => {
  const res = await get('/console/app', { cookie: 'vela_session=not-a-session' });
  t.is(res.status, 302);
  t.regex(res.headers.get('location')!, /^\/console\/login\?next=/);
});

test('signing in with the administrator opens a session and returns to the page asked for', async (t) => {
  const page = await openSignIn(vela, '/console/app/new');
  t.regex(page.html, /name="next" value="\/console\/app\/new"/);
  const res = await submit(page, { ...ADMIN, next: '/console/app/new' });
  t.is(res.status, 303);
  t.is(res.headers.get('location'), '/console/app/new');
  const session = setCookie(res, 'vela_session');
  t.truthy(session);
  const line = res.headers.getSetCookie().find((l) => l.startsWith('vela_session='))!;
  t.regex(line, /HttpOnly/);
  t.regex(line, /SameSite=Lax/);
  t.regex(line, /Path=\//);
  t.is(setCookie(res, 'vela_console_signin'), '', 'the used login token is cleared');

  const app = await get('/console/app/new', { cookie: `vela_session=${session}` });
  t.is(app.status, 200);
  t.regex(app.headers.get('content-type')!, /^text\/html/);
  t.regex(app.headers.get('content-security-policy')!, /script-src 'self'/);
  t.is(app.headers.get('cache-control'), 'no-store');
  const html = await app.text();
  t.regex(html, /<meta name="csrf-token" content="[\w-]{20,}">/);
  t.regex(html, /<span class="user"[^>]*>admin<\/span>/);
  t.regex(html, /<script type="module" src="\/console\/assets\/app-new.js"><\/script>/);

  const again = await get('/console/login?next=/console/mapping', { cookie: `vela_session=${session}` });
  t.is(again.status, 303, 'a signed-in browser skips the sign-in page');
  t.is(again.headers.get('location'), '/console/mapping');
});

test('sign-in only returns to console pages, never to another site', async (t) => {
  for (const next of [
    '//evil.example/x',
    'https://evil.example/',
    '/\\evil.example',
    '/api/v2/app',
    '/console/login?next=/console/app',
    '/console/../api/v2/app',
    '/console/%2E%2E/x',
  ]) {
    const page = await openSignIn(vela);
    const res = await submit(page, { ...ADMIN, next });
    t.is(res.status, 303, next);
    t.is(res.headers.get('location'), '/console/dashboard', next);
  }
});

test('a sign-in form without its CSRF token and cookie is refused and opens no session', async (t) => {
  const page = await openSignIn(vela);
  const attempts: Array<[string, Record<string, string>, Record<string, string>]> = [
    ['no token, no cookie', ADMIN, {}],
    ['token without its cookie', { ...ADMIN, csrf: page.csrf }, {}],
    ['cookie without the token', ADMIN, { cookie: page.cookie }],
    ['another token', { ...ADMIN, csrf: `${page.csrf}x` }, { cookie: page.cookie }],
  ];
  for (const [what, form, headers] of attempts) {
    const json = await postSignIn(vela, form, { ...headers, ...AS_JSON });
    t.is(json.status, 403, what);
    t.deepEqual(Object.keys(await json.json()).sort(), ['error', 'message'], what);
    t.is(setCookie(json, 'vela_session'), undefined, what);
    const html = await postSignIn(vela, form, headers);
    t.is(html.status, 403, what);
    t.regex(await html.text(), /The sign-in form had expired/, what);
    t.is(setCookie(html, 'vela_session'), undefined, what);
  }
  const res = await postSignIn(vela, ADMIN, AS_JSON);
  t.like(await res.json(), { error: 'csrf_token_invalid' });
});

test('a wrong password answers 401 with the form again, and opens no session', async (t) => {
  const page = await openSignIn(vela);
  const res = await submit(page, { ...ADMIN, password: 'wrong' });
  t.is(res.status, 401);
  t.is(setCookie(res, 'vela_session'), undefined);
  const html = await res.text();
  t.regex(html, /The user name or password is not right/);
  t.regex(html, /name="username"[^>]*value="admin"/, 'the user name is kept');

  const again = await openSignIn(vela);
  const json = await submit(again, { username: 'nobody', password: 'x' }, AS_JSON);
  t.is(json.status, 401);
  t.like(await json.json(), { error: 'unauthorized' });
  const empty = await submit(again, { username: '', password: '' }, AS_JSON);
  t.is(empty.status, 400);
  t.like(await empty.json(), { error: 'missing_parameter' });
});

test('repeated failed sign-ins for one user are refused for a while, without locking out other users', async (t) => {
  const attempt = async (username: string, password: string) =>
    submit(await openSignIn(vela), { username, password }, AS_JSON);
  for (let i = 0; i < 10; i += 1) t.is((await attempt('guesser', `guess-${i}`)).status, 401);
  const refused = await attempt('guesser', 'guess-10');
  t.is(refused.status, 429);
  t.true(Number(refused.headers.get('retry-after')) > 0);
  t.like(await refused.json(), { error: 'too_many_requests' });
  const admin = await attempt(TEST_ADMIN.user, TEST_ADMIN.password);
  t.is(admin.status, 303, 'the administrator still signs in');
});

test("signing out needs the page's CSRF token; with it the session ends", async (t) => {
  const { cookie, csrfToken } = await signIn(vela);
  const post = (form: Record<string, string>) =>
    vela.fetch('gateway', '/console/logout', {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  const refused = await post({});
  t.is(refused.status, 403);
  t.like(await refused.json(), { error: 'csrf_token_invalid' });
  t.is((await get('/console/app', { cookie })).status, 200, 'the session survives a forged sign-out');

  const res = await post({ csrf: csrfToken });
  t.is(res.status, 303);
  t.is(res.headers.get('location'), '/console/login');
  t.is(setCookie(res, 'vela_session'), '');
  t.is((await get('/console/app', { cookie })).status, 302, 'the old cookie no longer signs in');
});

test('admin API writes made with the session cookie need its CSRF token in X-CSRF-Token', async (t) => {
  const { cookie, csrfToken } = await signIn(vela);
  const post = (headers: Record<string, string>) =>
    vela.fetch('gateway', '/api/v2/app', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'From the console' }),
    });
  const refused = await post({});
  t.is(refused.status, 403);
  t.like(await refused.json(), { error: 'csrf_token_invalid' });
  t.is((await post({ 'x-csrf-token': 'another' })).status, 403);
  const list = await vela.fetch('gateway', '/api/v2/app', { headers: { cookie } });
  t.is(list.status, 200, 'reads need no CSRF token');
  t.false(
    ((await list.json()) as Array<{ name: string }>).some((app) => app.name === 'From the console'),
    'nothing was created by the refused writes',
  );
  const created = await post({ 'x-csrf-token': csrfToken });
  t.is(created.status, 201);
});

test('the receivers show what the redirect carried, as text, without a session', async (t) => {
  const code = await get(
    '/console/oauth2/receive_authcode?code=0123456789abcdef0123456789abcdef&state=<script>alert(1)</script>',
  );
  t.is(code.status, 200);
  t.is(code.headers.get('referrer-policy'), 'no-referrer', 'codes in the URL do not leak through Referer');
  const html = await code.text();
  t.regex(html, /<code id="code" class="credential">0123456789abcdef0123456789abcdef<\/code>/);
  t.regex(html, /<code id="state" class="credential">&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/code>/);
  t.notRegex(html, /<script>alert/);

  const token = await get(
    '/console/oauth2/receive_implicit_token?access_token=abc&state=xyz&token_type=bearer&expires_in=3600',
  );
  const page = await token.text();
  t.is(token.status, 200);
  for (const [id, value] of [
    ['access_token', 'abc'],
    ['state', 'xyz'],
    ['token_type', 'bearer'],
    ['expires_in', '3600'],
  ]) {
    t.regex(page, new RegExp(`<code id="${id}" class="credential">${value}</code>`));
  }
  const failed = await (
    await get('/console/oauth2/receive_authcode?error=access_denied&error_description=nope')
  ).text();
  t.regex(failed, /data-error="access_denied"/);
});

test("console pages are left out of the service's API description", async (t) => {
  const doc = (await (await get('/v3/api-docs')).json()) as { paths: Record<string, unknown> };
  t.true(Object.keys(doc.paths).length > 0);
  t.deepEqual(
    Object.keys(doc.paths).filter((path) => path.startsWith('/console')),
    [],
  );
});

test('console assets are served with their types and revalidated; other names are 404', async (t) => {
  const css = await get('/console/assets/console.css');
  t.is(css.status, 200);
  t.regex(css.headers.get('content-type')!, /^text\/css/);
  const js = await get('/console/assets/dashboard.js');
  t.regex(js.headers.get('content-type')!, /^text\/javascript/);
  t.is(js.headers.get('cache-control'), 'no-cache');
  const etag = js.headers.get('etag')!;
  t.is((await get('/console/assets/dashboard.js', { 'if-none-match': etag })).status, 304);
  for (const name of ['nope.js', 'chart-model.d.ts', '..%2Fmount-console.ts', '%2e%2e%2fsign-in-routes.ts']) {
    const res = await get(`/console/assets/${name}`);
    t.is(res.status, 404, name);
    t.like(await res.json(), { error: 'not_found' });
  }
});

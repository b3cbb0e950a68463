import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { rawRequest, startTestRuntime, type TestRuntime } from 'vela/testing';
import { TokenStore } from '../oauth/token-store.js';
import type { App, AppStore } from '../store/app-store.js';
import {
  admin,
  clientCredentials,
  createApp,
  createMapping,
  eventually,
  type LocalServer,
  postForm,
  startGateway,
  startServer,
} from './fixtures.js';

let vela: TestRuntime;
let upstream: LocalServer;
let callback: LocalServer;
let app: App;

test.before(async () => {
  upstream = await startServer((_req, res) => res.end('{"ok":true}'));
  // The app's callback answers with the query it received, so each redirect's result comes back on its own response.
  callback = await startServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url!.split('?')[0], query: new URL(req.url!, 'http://x').search }));
  });
  vela = await startGateway();
  await createMapping(vela, { context: '/proxy/data/v1', url: upstream.url });
  app = await createApp(vela, {
    name: 'Grant test',
    callbackUrls: [`${callback.url}/cb`, 'https://example.com/other'],
  });
});

test.after.always(async () => {
  await vela?.stop();
  await upstream?.close();
  await callback?.close();
});

/** Follow the authorize redirect for real and return what the app's callback received. */
async function authorizeVia(query: Record<string, string>): Promise<URLSearchParams> {
  const res = await vela.fetch('gateway', `/api/authorize?${new URLSearchParams(query)}`);
  if (res.status !== 200 || !res.redirected || !res.url.startsWith(callback.url))
    throw new Error(`authorize did not reach the callback: ${res.status} ${await res.text()}`);
  const seen = (await res.json()) as { path: string; query: string };
  return new URLSearchParams(seen.query);
}

async function location(
  query: Record<string, string>,
): Promise<{ status: number; location: string | null; body: string }> {
  const res = await vela.fetch('gateway', `/api/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

const FORM = 'application/x-www-form-urlencoded';

/** `body` sent as it stands to `path` with `method`, as of `type`: the status and the text of the answer. */
const sendBody = (method: string, path: string, body: string, type = FORM) =>
  rawRequest(vela.url('gateway'), path, { method, headers: { 'content-type': type }, body });

/** The original's documented token call (curl -X GET -d ...): GET with a form-encoded body, which fetch cannot send. */
const getToken = (form: string) => sendBody('GET', '/api/token', form);

const proxyStatus = async (token: string) =>
  (await vela.fetch('gateway', '/data/v1/x', { headers: { authorization: `Bearer ${token}` } })).status;
const redirectUri = () => `${callback.url}/cb`;

/** The app's own grant of `response_type` to its first callback, through the real redirect. */
const grant = (response_type: string, extra: Record<string, string> = {}) =>
  authorizeVia({ response_type, client_id: app.apiKey, redirect_uri: redirectUri(), ...extra });

test('authorization-code grant end to end: redirect to the callback, code for a token, token through the proxy', async (t) => {
  const got = await grant('code', { state: 'xyz' });
  t.regex(got.get('code')!, /^[0-9a-f]{32}$/);
  t.is(got.get('state'), 'xyz');
  const res = await getToken(`grant_type=authorization_code&code=${got.get('code')}`);
  t.is(res.status, 200);
  t.is(res.headers['cache-control'], 'no-store');
  const token = JSON.parse(res.body) as {
    access_token: string;
    token_type: string;
    expires_in: number;
    refresh_token: string;
  };
  t.regex(token.access_token, /^[0-9a-f]{32}$/);
  t.is(token.token_type, 'bearer');
  t.is(token.expires_in, 3600);
  t.is(await proxyStatus(token.access_token), 200);
});

test('implicit grant end to end: access_token, state, token_type and expires_in arrive as query parameters', async (t) => {
  const got = await grant('token', { state: 's1' });
  t.regex(got.get('access_token')!, /^[0-9a-f]{32}$/);
  t.is(got.get('state'), 's1');
  t.is(got.get('token_type'), 'bearer');
  t.is(got.get('expires_in'), '3600');
  t.is(await proxyStatus(got.get('access_token')!), 200);
});

test('state is generated when the request has none', async (t) => {
  const got = await grant('token');
  t.regex(got.get('state')!, /^[0-9a-f]{32}$/);
});

test("the console receivers on the gateway's own origin are accepted redirect URIs", async (t) => {
  for (const path of ['/console/oauth2/receive_authcode', '/console/oauth2/receive_implicit_token']) {
    const r = await location({ response_type: 'code', client_id: app.apiKey, redirect_uri: vela.url('gateway', path) });
    t.is(r.status, 302);
    t.true(r.location!.startsWith(`${vela.url('gateway', path)}?code=`));
  }
});

test('an unknown client, a bad response_type or an unregistered redirect_uri answer 400 JSON, never a redirect', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ response_type: 'code', client_id: 'f'.repeat(32), redirect_uri: redirectUri() }, 'invalid_client'],
    [{ response_type: 'id_token', client_id: app.apiKey, redirect_uri: redirectUri() }, 'unsupported_response_type'],
    [{ client_id: app.apiKey, redirect_uri: redirectUri() }, 'invalid_request'],
    [{ response_type: 'code', client_id: app.apiKey, redirect_uri: 'https://evil.example/cb' }, 'invalid_request'],
    // Prefix and user-info tricks on the registered callback, and a receiver with an empty fragment.
    [
      { response_type: 'code', client_id: app.apiKey, redirect_uri: `${redirectUri()}.evil.example` },
      'invalid_request',
    ],
    [
      { response_type: 'code', client_id: app.apiKey, redirect_uri: `${callback.url}.evil.example/cb` },
      'invalid_request',
    ],
    [
      { response_type: 'code', client_id: app.apiKey, redirect_uri: `${callback.url}@evil.example/cb` },
      'invalid_request',
    ],
    [{ response_type: 'code', client_id: app.apiKey, redirect_uri: `${redirectUri()}/../../evil` }, 'invalid_request'],
    [
      { response_type: 'code', client_id: app.apiKey, redirect_uri: `${redirectUri()}?next=https://evil.example/` },
      'invalid_request',
    ],
    [
      {
        response_type: 'code',
        client_id: app.apiKey,
        redirect_uri: `${vela.url('gateway', '/console/oauth2/receive_authcode')}#`,
      },
      'invalid_request',
    ],
    [
      {
        response_type: 'code',
        client_id: app.apiKey,
        redirect_uri: `http://evil.example@${new URL(vela.url('gateway')).host}/console/oauth2/receive_authcode`,
      },
      'invalid_request',
    ],
    [
      {
        response_type: 'code',
        client_id: app.apiKey,
        redirect_uri: 'http://127.0.0.1:1/console/oauth2/receive_authcode',
      },
      'invalid_request',
    ],
    [{ response_type: 'code', client_id: app.apiKey }, 'invalid_request'],
    [{ response_type: 'code', redirect_uri: redirectUri() }, 'invalid_request'],
    [
      {
        response_type: 'code',
        client_id: app.apiKey,
        redirect_uri: redirectUri(),
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'plain',
      },
      'invalid_request',
    ],
    [
      { response_type: 'token', client_id: app.apiKey, redirect_uri: redirectUri(), scope: 's'.repeat(501) },
      'invalid_scope',
    ],
    [
      {
        response_type: 'code',
        client_id: app.apiKey,
        redirect_uri: `${vela.url('gateway', '/console/oauth2/receive_authcode')}?${'x'.repeat(2000)}`,
      },
      'invalid_request',
    ],
  ];
  for (const [query, error] of cases) {
    const r = await location(query);
    t.is(r.status, 400, JSON.stringify(query));
    t.is(r.location, null);
    const body = JSON.parse(r.body) as { error: string; message: string; error_description: string };
    t.is(body.error, error, JSON.stringify(query));
    t.truthy(body.message);
    t.is(body.error_description, body.message);
  }
});

async function newCode(extra: Record<string, string> = {}, uri = redirectUri()): Promise<string> {
  return (await grant('code', { redirect_uri: uri, ...extra })).get('code')!;
}

test('a code works once; its reuse is refused and revokes the token it bought', async (t) => {
  const code = await newCode();
  const first = await postForm(vela, '/api/token', { grant_type: 'authorization_code', code });
  t.is(first.status, 200);
  t.is(await proxyStatus(first.body.access_token), 200);
  const again = await postForm(vela, '/api/token', { grant_type: 'authorization_code', code });
  t.is(again.status, 400);
  t.is(again.body.error, 'invalid_grant');
  t.is(await proxyStatus(first.body.access_token), 401, 'the replay revoked the first token');
  t.is(
    (await postForm(vela, '/api/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).body
      .error,
    'invalid_grant',
  );
});

test('a code is bound to its redirect_uri and client, and a sent secret must be right', async (t) => {
  const code = await newCode();
  const wrongUri = await postForm(vela, '/api/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: 'https://example.com/other',
  });
  t.is(wrongUri.body.error, 'invalid_grant');
  const other = await createApp(vela, { name: 'Other client' });
  const wrongClient = await postForm(vela, '/api/token', {
    grant_type: 'authorization_code',
    code,
    client_id: other.apiKey,
  });
  t.is(wrongClient.body.error, 'invalid_grant');
  const wrongSecret = await postForm(vela, '/api/token', {
    grant_type: 'authorization_code',
    code,
    client_id: app.apiKey,
    client_secret: '0'.repeat(32),
  });
  t.is(wrongSecret.status, 401);
  t.is(wrongSecret.body.error, 'invalid_client');
  const basic = `Basic ${Buffer.from(`${app.apiKey}:${'1'.repeat(32)}`).toString('base64')}`;
  const wrongBasic = await postForm(
    vela,
    '/api/token',
    { grant_type: 'authorization_code', code },
    { authorization: basic },
  );
  t.is(wrongBasic.status, 401);
  t.regex(wrongBasic.headers.get('www-authenticate')!, /^Basic /);
  // Refusals before the claim leave the code usable by its rightful client.
  const right = await postForm(
    vela,
    '/api/token',
    { grant_type: 'authorization_code', code, redirect_uri: redirectUri() },
    { authorization: `Basic ${Buffer.from(`${app.apiKey}:${app.apiSecret}`).toString('base64')}` },
  );
  t.is(right.status, 200);
});

test('a parameter sent twice, in the query and the body or twice in one, is refused with invalid_request and uses up nothing', async (t) => {
  const code = await newCode();
  const both = await postForm(vela, `/api/token?code=${'0'.repeat(32)}`, { grant_type: 'authorization_code', code });
  t.is(both.status, 400);
  t.like(both.body, { error: 'invalid_request' });
  t.regex(both.body.message, /^code must be given once/);
  const twice = await vela.fetch('gateway', '/api/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=authorization_code&code=${code}&code=${code}`,
  });
  t.is(twice.status, 400);
  t.like(await twice.json(), { error: 'invalid_request' });
  t.is((await postForm(vela, '/api/token', { grant_type: 'authorization_code', code })).status, 200);
});

test('a body the token, revoke or introspect endpoint cannot take still answers RFC 6749 JSON: too large, or in an unknown charset', async (t) => {
  const big = `grant_type=client_credentials&pad=${'a'.repeat(20_000)}`;
  const checks: Array<[string, Promise<{ status: number; body: string }>, number]> = [
    ['POST /api/token too large', sendBody('POST', '/api/token', big), 413],
    ['GET /api/token too large', getToken(big), 413],
    ['POST /api/revoke too large', sendBody('POST', '/api/revoke', big), 413],
    [
      'POST /api/introspect unknown charset',
      sendBody('POST', '/api/introspect', 'token=a', `${FORM}; charset=x-unknown`),
      415,
    ],
  ];
  for (const [what, pending, status] of checks) {
    const got = await pending;
    t.is(got.status, status, what);
    const body = JSON.parse(got.body) as { error: string; error_description: string; message: string };
    t.is(body.error, 'invalid_request', what);
    t.truthy(body.error_description, what);
    t.is(body.message, body.error_description, what);
  }
});

test("a token issued while all of an app's tokens are being revoked is live in memory exactly when it is unrevoked in the store", async (t) => {
  // A store of its own (no sync) over the runtime's one SQLite connection, which runs queries in the order they are
  // asked.
  const apps = { find: () => app, appOfOwnToken: () => undefined } as unknown as AppStore;
  const tokens = new TokenStore(vela.runtime.db, apps);
  const appId = `race-${randomBytes(4).toString('hex')}`;
  const earlier = await tokens.issue('access', appId, 'client_credentials', 3600);
  const revoking = tokens.revokeApp(appId);
  const issued = await tokens.issue('access', appId, 'client_credentials', 3600);
  await revoking;
  const row = await tokens.find(issued.token);
  t.is(tokens.appOfBearer(issued.token) === null, row!.revoked, 'memory and store agree');
  t.is(tokens.appOfBearer(earlier.token), null);
});

test('codes expire after the configured lifetime', async (t) => {
  const short = await startGateway({ codeTtlSeconds: 1 });
  t.teardown(() => short.stop());
  const shortApp = await (async () => {
    const res = await admin(short, 'POST', '/api/v2/app', { name: 'expiry', callbackUrls: ['https://example.com/cb'] });
    return res.body as App;
  })();
  const res = await short.fetch(
    'gateway',
    `/api/authorize?response_type=code&client_id=${shortApp.apiKey}&redirect_uri=https://example.com/cb`,
    {
      redirect: 'manual',
    },
  );
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  await new Promise((r) => setTimeout(r, 1100));
  const late = await postForm(short, '/api/token', { grant_type: 'authorization_code', code });
  t.is(late.status, 400);
  t.is(late.body.error, 'invalid_grant');
  t.regex(late.body.message, /expired/);
});

test('PKCE S256: the right verifier gets the token, a wrong or missing one is refused', async (t) => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = await newCode({ code_challenge: challenge, code_challenge_method: 'S256' });
  t.is((await postForm(vela, '/api/token', { grant_type: 'authorization_code', code })).body.error, 'invalid_grant');
  t.is(
    (
      await postForm(vela, '/api/token', {
        grant_type: 'authorization_code',
        code,
        code_verifier: randomBytes(32).toString('base64url'),
      })
    ).body.error,
    'invalid_grant',
  );
  const ok = await postForm(vela, '/api/token', { grant_type: 'authorization_code', code, code_verifier: verifier });
  t.is(ok.status, 200);
  t.is(await proxyStatus(ok.body.access_token), 200);
});

test('refresh_token rotates: the new pair works, the old refresh token does not', async (t) => {
  const first = await postForm(vela, '/api/token', { grant_type: 'authorization_code', code: await newCode() });
  const second = await postForm(vela, '/api/token', {
    grant_type: 'refresh_token',
    refresh_token: first.body.refresh_token,
    client_id: app.apiKey,
    client_secret: app.apiSecret,
  });
  t.is(second.status, 200);
  t.not(second.body.access_token, first.body.access_token);
  t.is(await proxyStatus(second.body.access_token), 200);
  const reuse = await postForm(vela, '/api/token', {
    grant_type: 'refresh_token',
    refresh_token: first.body.refresh_token,
  });
  t.is(reuse.body.error, 'invalid_grant');
});

test('client_credentials needs the right secret and gives a token without a refresh token', async (t) => {
  t.is(
    (await postForm(vela, '/api/token', { grant_type: 'client_credentials', client_id: app.apiKey })).body.error,
    'invalid_client',
  );
  const res = await clientCredentials(vela, app);
  t.is(res.status, 200);
  t.is(res.body.refresh_token, undefined);
  t.is(await proxyStatus(res.body.access_token), 200);
  t.is(
    (await postForm(vela, '/api/token', { grant_type: 'password', username: 'a', password: 'b' })).body.error,
    'unsupported_grant_type',
  );
  t.is((await postForm(vela, '/api/token', {})).body.error, 'invalid_request');
});

test("introspection describes the client's own tokens; revocation stops one at the proxy", async (t) => {
  const creds = { client_id: app.apiKey, client_secret: app.apiSecret };
  const { body } = await postForm(vela, '/api/token', { grant_type: 'client_credentials', ...creds });
  const active = await postForm(vela, '/api/introspect', { token: body.access_token, ...creds });
  t.like(active.body, { active: true, client_id: app.apiKey, token_type: 'bearer' });
  t.true(active.body.exp > Date.now() / 1000);
  const other = await createApp(vela, { name: 'nosy' });
  t.deepEqual(
    (
      await postForm(vela, '/api/introspect', {
        token: body.access_token,
        client_id: other.apiKey,
        client_secret: other.apiSecret,
      })
    ).body,
    {
      active: false,
    },
  );
  t.is((await postForm(vela, '/api/introspect', { token: body.access_token })).status, 401);
  t.is((await postForm(vela, '/api/revoke', { token: body.access_token, ...creds })).status, 200);
  t.is(await proxyStatus(body.access_token), 401);
  t.deepEqual((await postForm(vela, '/api/introspect', { token: body.access_token, ...creds })).body, {
    active: false,
  });
  t.is(
    (await postForm(vela, '/api/revoke', { token: 'not-a-token', ...creds })).status,
    200,
    'RFC 7009: unknown tokens answer 200 too',
  );
});

test("RFC 8414 metadata names the endpoints on the gateway's own origin", async (t) => {
  const res = await vela.fetch('gateway', '/.well-known/oauth-authorization-server');
  const meta = (await res.json()) as Record<string, unknown>;
  t.is(meta.issuer, vela.url('gateway'));
  t.is(meta.token_endpoint, vela.url('gateway', '/api/token'));
  t.deepEqual(meta.code_challenge_methods_supported, ['S256']);
});

/** A GET with the Host header a client chose (fetch does not let a caller set it). */
const getWithHost = (target: string, host: string) => rawRequest(vela.url('gateway'), target, { headers: { host } });

test('a forged Host header moves neither the issuer nor the console receivers: the public base URL decides', async (t) => {
  const meta = JSON.parse(
    (await getWithHost('/.well-known/oauth-authorization-server', 'evil.example')).body,
  ) as Record<string, unknown>;
  t.is(meta.issuer, vela.url('gateway'));
  t.is(meta.authorization_endpoint, vela.url('gateway', '/api/authorize'));
  const forged = new URLSearchParams({
    response_type: 'code',
    client_id: app.apiKey,
    redirect_uri: 'http://evil.example/console/oauth2/receive_authcode',
  });
  const answer = await getWithHost(`/api/authorize?${forged}`, 'evil.example');
  t.is(answer.status, 400, 'a receiver on the forged host is no receiver');
  t.is(answer.headers.location, undefined, 'no code is sent anywhere');

  const behindProxy = await startTestRuntime({
    plugins: ['gateway'],
    config: { services: { gateway: { publicUrl: 'https://gateway.example.org/vela' } } },
  });
  t.teardown(() => behindProxy.stop());
  const configured = (await (
    await behindProxy.fetch('gateway', '/.well-known/oauth-authorization-server')
  ).json()) as Record<string, unknown>;
  t.is(configured.issuer, 'https://gateway.example.org/vela');
  t.is(configured.token_endpoint, 'https://gateway.example.org/vela/api/token');
});

test("regenerating the app key retires the old client_id; gen_token replaces the app's own token", async (t) => {
  const own = await createApp(vela, { name: 'rotate', callbackUrls: ['https://example.com/cb'] });
  const rotated = (await admin(vela, 'PUT', `/api/v2/app/${own.id}/gen_key`)).body as App;
  t.not(rotated.apiKey, own.apiKey);
  t.is(
    (await location({ response_type: 'code', client_id: own.apiKey, redirect_uri: 'https://example.com/cb' })).status,
    400,
  );
  t.is(
    (await location({ response_type: 'code', client_id: rotated.apiKey, redirect_uri: 'https://example.com/cb' }))
      .status,
    302,
  );
  const retokened = (await admin(vela, 'PUT', `/api/v2/app/${own.id}/gen_token`)).body as App;
  t.is(await proxyStatus(own.accessToken!), 401);
  t.is(await proxyStatus(retokened.accessToken!), 200);
});

test('an issued token stops working at the proxy once it expires, and when its app is deleted', async (t) => {
  const fast = await startGateway({ syncMs: 50 });
  t.teardown(() => fast.stop());
  await admin(fast, 'POST', '/api/v2/mapping', { context: '/proxy/data/v1', url: upstream.url });
  const own = (await admin(fast, 'POST', '/api/v2/app', { name: 'expiring' })).body as App;
  const issue = async () => (await clientCredentials(fast, own)).body.access_token as string;
  const status = async (token: string) =>
    (await fast.fetch('gateway', '/data/v1/x', { headers: { authorization: `Bearer ${token}` } })).status;
  const token = await issue();
  t.is(await status(token), 200);
  // Move its expiry into the past as another process's write would arrive: through the store and the sync.
  await fast.runtime
    .db('gateway_tokens')
    .where({ token_hash: createHash('sha256').update(token).digest('hex') })
    .update({ expires_at: Date.now() - 1000, changed_at: Date.now() });
  await eventually(async () => (await status(token)) === 401, 'the expired token refused');
  const second = await issue();
  t.is(await status(second), 200);
  await admin(fast, 'DELETE', `/api/v2/app/${own.id}`);
  t.is(await status(second), 401);
});

import http from 'node:http';
import test from 'ava';
import type { TestRuntime } from 'vela/testing';
import { openSignIn, signIn } from './console-sign-in.js';
import { admin, createApp, createMapping, type LocalServer, startGateway, startServer } from './fixtures.js';

// An upstream that records every request it gets and answers with the Set-Cookie headers the test asks for;
// the tests run one at a time, so each finds its request at the end of the record.
let vela: TestRuntime;
let upstream: LocalServer;
let bearer: string;
const received: http.IncomingHttpHeaders[] = [];
let answerCookies: string[] = [];

test.before(async () => {
  upstream = await startServer((req, res) => {
    received.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': answerCookies });
    res.end('{}');
  });
  vela = await startGateway();
  await createMapping(vela, { context: '/proxy/echo/v1', url: `${upstream.url}/api` });
  bearer = `Bearer ${(await createApp(vela)).accessToken}`;
});

test.after.always(async () => {
  await vela?.stop();
  await upstream?.close();
});

/** Proxy one request; the headers the upstream got, and the answer. */
async function proxied(
  headers: Record<string, string>,
): Promise<{ upstream: http.IncomingHttpHeaders; res: Response }> {
  const before = received.length;
  const res = await vela.fetch('gateway', '/echo/v1/x', { headers: { authorization: bearer, ...headers } });
  await res.text();
  if (res.status !== 200 || received.length !== before + 1)
    throw new Error(`the request was not proxied: ${res.status}`);
  return { upstream: received[before]!, res };
}

test.serial(
  "Vela's session and sign-in cookies, Key and X-CSRF-Token stay at the gateway; other cookies and headers go through",
  async (t) => {
    const { cookie: session, csrfToken } = await signIn(vela);
    const { cookie: signInCookie } = await openSignIn(vela);
    const { upstream: got } = await proxied({
      cookie: `theme=dark; ${session}; ${signInCookie}; cart=42`,
      key: 'some-api-token',
      'x-csrf-token': csrfToken,
      'x-api-key': 'the-upstream-own-key',
    });
    t.is(got.cookie, 'theme=dark; cart=42');
    for (const header of ['authorization', 'key', 'x-csrf-token']) t.is(got[header], undefined, header);
    t.is(got['x-api-key'], 'the-upstream-own-key', "the upstream's own headers are not Vela's");

    // What an upstream received from a signed-in administrator's browser is worth nothing against Vela.
    const replayed = await vela.fetch('gateway', '/api/v2/app', {
      method: 'POST',
      headers: {
        ...(got as Record<string, string>),
        'content-type': 'application/json',
        host: new URL(vela.url('gateway')).host,
      },
      body: JSON.stringify({ name: 'planted by the upstream' }),
    });
    t.is(replayed.status, 401);
    t.false(
      (await admin(vela, 'GET', '/api/v2/app')).body.some(
        (app: { name: string }) => app.name === 'planted by the upstream',
      ),
    );
  },
);

test.serial(
  'a request with only Vela cookies reaches the upstream without a Cookie header; look-alikes are caught, values are not names',
  async (t) => {
    t.is((await proxied({ cookie: 'vela_session=abc; vela_console_signin=def' })).upstream.cookie, undefined);
    // Spaces and a leading "=" (how a browser sends back a nameless cookie) do not hide a Vela cookie.
    t.is((await proxied({ cookie: ' vela_session = abc ;=vela_session=def;  keep=1 ' })).upstream.cookie, 'keep=1');
    t.is(
      (await proxied({ cookie: 'xvela_session=1; note=vela_session; vela=2' })).upstream.cookie,
      'xvela_session=1; note=vela_session; vela=2',
    );
  },
);

test.serial('each Cookie header of a request is cleaned, and one left empty is dropped', async (t) => {
  const before = received.length;
  const status = await new Promise<number>((resolve, reject) => {
    const url = new URL(vela.url('gateway', '/echo/v1/x'));
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: [
          'Host',
          url.host,
          'Authorization',
          bearer,
          'Cookie',
          'a=1; vela_session=x',
          'Cookie',
          'vela_session=y',
        ],
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end();
  });
  t.is(status, 200);
  t.is(received[before]!.cookie, 'a=1');
});

test.serial(
  "an upstream cannot set or overwrite Vela's cookies; its own Set-Cookie headers reach the client",
  async (t) => {
    answerCookies = [
      'vela_session=planted; Path=/; HttpOnly',
      ' vela_console_signin=planted; Path=/console/login',
      '=vela_session=planted; Path=/',
      'vela_anything=1',
      'app=1; Path=/; HttpOnly',
      'note=vela_session',
    ];
    t.teardown(() => {
      answerCookies = [];
    });
    const { res } = await proxied({});
    t.deepEqual(res.headers.getSetCookie(), ['app=1; Path=/; HttpOnly', 'note=vela_session']);
  },
);

test.serial(
  "an upstream's answer is sandboxed: served from the console's origin, it cannot act with the administrator's session",
  async (t) => {
    const { res } = await proxied({});
    t.is(res.headers.get('content-security-policy'), 'sandbox');
  },
);

import net from 'node:net';
import test from 'ava';
import { startTestRuntime, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// Every kind of answer of the three bundled services, over HTTP: pages, their files, redirects, JSON
// (public, key, admin, errors of the runtime, of plugins and of the gateway's proxy) and raw socket errors.
let vela: TestRuntime;
let session: string;
let mappingId: string;
let appId: string;
let bearer: string;

async function json(service: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await vela.fetch(service, path, {
    ...init,
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json', ...init.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

test.before(async () => {
  vela = await startTestRuntime();
  await json('search', '/api/sn', {
    method: 'POST',
    body: JSON.stringify({ name: 'Docs', fields: [{ name: 'title', type: 'TEXT' }], locales: ['en_US'] }),
  });
  const closedPort = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  mappingId = (
    await json('gateway', '/api/v2/mapping', {
      method: 'POST',
      body: JSON.stringify({ context: '/proxy/gone/v1', url: `http://127.0.0.1:${closedPort}/` }),
    })
  ).id;
  const app = await json('gateway', '/api/v2/app', { method: 'POST', body: JSON.stringify({ name: 'Headers' }) });
  appId = app.id;
  bearer = `Bearer ${app.accessToken}`;
  const login = await vela.fetch('gateway', '/api/login', { headers: { authorization: vela.adminAuth } });
  session = login.headers.getSetCookie()[0]!.split(';')[0]!;
});

test.after.always(() => vela?.stop());

const get = (service: string, path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  vela.fetch(service, path, { redirect: 'manual', ...init, headers });

function checkCommon(t: import('ava').ExecutionContext, res: Response, what: string): void {
  t.is(res.headers.get('x-content-type-options'), 'nosniff', what);
  t.is(res.headers.get('referrer-policy'), 'no-referrer', what);
  t.is(res.headers.get('x-frame-options'), 'DENY', what);
  t.regex(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, what);
}

/**
 * A page: its own CSP (no inline script or style, nothing loaded from elsewhere), and no inline script, style or
 * handler in it.
 */
async function checkPage(t: import('ava').ExecutionContext, res: Response, what: string): Promise<void> {
  t.is(res.status, 200, what);
  t.regex(res.headers.get('content-type') ?? '', /^text\/html/, what);
  checkCommon(t, res, what);
  const csp = res.headers.get('content-security-policy')!;
  t.notRegex(csp, /unsafe-inline|unsafe-eval|\*|https?:/, what);
  t.regex(csp, /default-src 'none'/, what);
  t.regex(csp, /script-src 'self'/, what);
  const html = await res.text();
  t.notRegex(html, /<script(?![^>]*\bsrc=)[^>]*>/i, `${what}: no inline script`);
  t.notRegex(html, /<style|\sstyle=|\son[a-z]+=/i, `${what}: no inline style or handler`);
}

test('every HTML page of every service has its CSP without unsafe-inline, frame-ancestors, nosniff and Referrer-Policy', async (t) => {
  await checkPage(t, await get('search', '/sn/Docs?q=*&_setlocale=en_US'), 'search sample page');
  await checkPage(t, await get('gateway', '/console/login'), 'console sign-in');
  const consolePages = [
    '/console/dashboard',
    '/console/mapping',
    '/console/mapping/new',
    `/console/mapping/${mappingId}`,
    '/console/app',
    '/console/app/new',
    `/console/app/${appId}`,
    `/console/app/${appId}/keys`,
  ];
  for (const path of consolePages) await checkPage(t, await get('gateway', path, { cookie: session }), path);
  for (const path of [
    '/console/oauth2/receive_authcode?code=abc&state=x',
    '/console/oauth2/receive_implicit_token?access_token=abc',
  ]) {
    await checkPage(t, await get('gateway', path), path);
    await checkPage(t, await get('gateway', path, { cookie: session }), `${path} signed in`);
  }
});

test("pages' scripts and styles are served with their type and nosniff", async (t) => {
  for (const [service, path, type] of [
    ['search', '/sn/assets/sample-page.js', /^text\/javascript/],
    ['search', '/sn/assets/sample-page.css', /^text\/css/],
    ['gateway', '/console/assets/console.css', /^text\/css/],
  ] as const) {
    const res = await get(service, path);
    t.is(res.status, 200, path);
    t.regex(res.headers.get('content-type') ?? '', type, path);
    checkCommon(t, res, path);
  }
  t.is((await get('search', '/sn/assets/../index.ts')).status, 404);
});

test('every JSON answer, redirect and error carries nosniff and the no-page CSP', async (t) => {
  const answers: Array<[string, string, Record<string, string>, RequestInit?]> = [
    ['search', '/health', {}],
    ['search', '/v3/api-docs', {}],
    ['search', '/api/sn/Docs/search?q=*', {}],
    ['search', '/api/sn', { authorization: vela.adminAuth }],
    ['search', '/api/sn', {}],
    [
      'search',
      '/api/sn',
      { authorization: vela.adminAuth, 'content-type': 'application/json' },
      { method: 'POST', body: '{}' },
    ],
    [
      'search',
      '/graphql',
      { 'content-type': 'application/json' },
      { method: 'POST', body: '{"query":"{ siteNames }"}' },
    ],
    ['search', '/no/such/route', {}],
    ['search', '/sn/Docs', {}],
    ['search', '/api/login', { authorization: vela.adminAuth }],
    ['gateway', '/', {}],
    ['gateway', '/console/dashboard', {}],
    [
      'gateway',
      '/api/token',
      { 'content-type': 'application/x-www-form-urlencoded' },
      { method: 'POST', body: 'grant_type=nope' },
    ],
    ['gateway', '/api/v2/app', {}],
    ['gateway', '/gone/v1/x', { authorization: bearer }],
    ['gateway', '/gone/elsewhere', { authorization: bearer }],
    ['connector', '/api/v2/connector/status', {}],
    ['connector', '/api/v2/connector/source', {}],
  ];
  for (const [service, path, headers, init] of answers) {
    const res = await get(service, path, headers, init);
    const what = `${init?.method ?? 'GET'} ${service} ${path} (${res.status})`;
    checkCommon(t, res, what);
    t.regex(res.headers.get('content-security-policy') ?? '', /^default-src 'none'/, what);
    if (res.status < 300 || res.status >= 400) t.regex(res.headers.get('content-type') ?? '', /json/, what);
  }
});

test("answers written before any handler (the parser's errors) carry nosniff too", async (t) => {
  const { port } = new URL(vela.url('search'));
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () =>
      socket.end(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`),
    );
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  t.regex(answer, /^HTTP\/1\.1 431/);
  t.regex(answer, /\r\nX-Content-Type-Options: nosniff\r\n/);
});

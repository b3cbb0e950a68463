import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import test from 'ava';
import { startTestRuntime, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// What the HTTP layer refuses before any route runs (Node's parser: 431, 400, 413; the body parsers: 413), and
// what the gateway's proxy refuses before it forwards, is answered in the one error shape on every service,
// with a Content-Length that matches and the connection closed. Raw sockets: no client library tidies the bytes.

const SERVICES = ['search', 'gateway', 'connector'];
let vela: TestRuntime;
let upstream: http.Server;
let upstreamRequests = 0;
let token = '';

test.before(async () => {
  // An upstream with Node's default limits (16 KiB of request line and headers), as many are.
  upstream = http.createServer((req, res) => {
    upstreamRequests += 1;
    res.end(`seen ${req.url?.length}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const bodyLimit = '2kb';
  vela = await startTestRuntime({
    plugins: ['search', 'gateway', 'connector'],
    config: { services: Object.fromEntries(SERVICES.map((name) => [name, { bodyLimit }])) },
  });
  const admin = { authorization: vela.adminAuth, 'content-type': 'application/json' };
  const mapping = await vela.fetch('gateway', '/api/v2/mapping', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({
      context: '/proxy/small',
      url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api`,
    }),
  });
  if (mapping.status !== 201) throw new Error(`mapping: ${mapping.status} ${await mapping.text()}`);
  const app = await vela.fetch('gateway', '/api/v2/app', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'refusals' }),
  });
  token = ((await app.json()) as { accessToken: string }).accessToken;
});

test.after.always(async () => {
  await vela?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes the bytes as they are, reads until the server closes, and splits the answer. */
function raw(service: string, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(vela.url(service)).port), '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => socket.destroy(new Error('the server did not close the connection within 5 s')),
      5000,
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while the rest of an oversized request is still being written.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no complete answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8'),
      });
    });
  });
}

/** The one error shape, framed right: JSON, a Content-Length that is the body's, the connection closed. */
function assertRefusal(
  t: import('ava').ExecutionContext,
  answer: RawAnswer,
  status: number,
  error: string,
  what: string,
): void {
  t.is(answer.status, status, `${what}: ${JSON.stringify(answer)}`);
  t.regex(answer.headers['content-type'] ?? '', /^application\/json/, what);
  t.is(Number(answer.headers['content-length']), Buffer.byteLength(answer.body), `${what}: Content-Length`);
  const body = JSON.parse(answer.body) as { error: unknown; message: unknown };
  t.deepEqual(Object.keys(body).sort(), ['error', 'message'], what);
  t.is(body.error, error, what);
  t.true(typeof body.message === 'string' && body.message.length > 0, what);
}

test('a request line or headers past the limit is a 431 in the error shape on every service', async (t) => {
  for (const service of SERVICES) {
    const longPath = await raw(service, `GET /${'a'.repeat(70 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assertRefusal(t, longPath, 431, 'headers_too_large', `${service}, a 70 KiB path`);
    t.is(longPath.headers.connection, 'close');
    const header = await raw(service, `GET /health HTTP/1.1\r\nHost: x\r\nX-Long: ${'b'.repeat(70 * 1024)}\r\n\r\n`);
    assertRefusal(t, header, 431, 'headers_too_large', `${service}, a 70 KiB header`);
  }
});

test('malformed HTTP is a 400 in the error shape on every service', async (t) => {
  const malformed = [
    'NOT HTTP AT ALL\r\n\r\n',
    'GET /health HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n',
    'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    'POST /api/logout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  ];
  for (const service of SERVICES) {
    for (const request of malformed)
      assertRefusal(
        t,
        await raw(service, request),
        400,
        'bad_request',
        `${service}: ${JSON.stringify(request.slice(0, 60))}`,
      );
  }
});

test('what Node or express would answer with a bare status or an HTML page is answered in the error shape on every service', async (t) => {
  for (const service of SERVICES) {
    const expectation = await raw(service, 'GET /health HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n');
    assertRefusal(t, expectation, 417, 'expectation_failed', `${service}: an Expect other than 100-continue`);
    t.is(expectation.headers.connection, 'close');
    const noHost = await raw(service, 'GET /health HTTP/1.1\r\n\r\n');
    assertRefusal(t, noHost, 400, 'bad_request', `${service}: HTTP/1.1 without Host`);
    t.is(JSON.parse(noHost.body).message, 'an HTTP/1.1 request needs a Host header');
    const target = await raw(service, 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assertRefusal(t, target, 400, 'bad_request', `${service}: a request target that is no URL`);
    t.is(target.headers['x-content-type-options'], 'nosniff', 'with the security headers');
  }
  // HTTP/1.0 needs no Host, and 100-continue is met.
  t.is((await raw('search', 'GET /health HTTP/1.0\r\n\r\n')).status, 200);
  const continued = await raw(
    'search',
    'GET /health HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
  );
  t.is(continued.status, 100);
  t.regex(continued.body, /^HTTP\/1\.1 200 /);
});

test('bodies past the limits are a 413 in the error shape on every service: the body parser and chunk extensions', async (t) => {
  const credentials = `Authorization: ${vela.adminAuth}\r\n`;
  const big = JSON.stringify({ filler: 'x'.repeat(4000) });
  for (const service of SERVICES) {
    const body = await raw(
      service,
      `POST /api/logout HTTP/1.1\r\nHost: x\r\n${credentials}Content-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
    );
    t.is(body.status, 413, service);
    t.deepEqual(JSON.parse(body.body), {
      error: 'payload_too_large',
      message: 'request body is larger than the limit of 2048 bytes',
    });
    const extensions = await raw(
      service,
      `POST /api/logout HTTP/1.1\r\nHost: x\r\n${credentials}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    );
    assertRefusal(t, extensions, 413, 'payload_too_large', `${service}, 20 KB of chunk extensions`);
  }
});

test('the gateway refuses to forward a head its upstreams would refuse, with a 431 in the error shape, sending nothing', async (t) => {
  const before = upstreamRequests;
  const fine = await raw(
    'gateway',
    `GET /small/${'a'.repeat(8_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
  );
  t.is(fine.status, 200, fine.body);
  t.is(fine.body, `seen ${'/api/'.length + 8_000}`);
  for (const [what, request] of [
    ['a 20 KB path', `GET /small/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`],
    [
      'a 50 KB query',
      `GET /small/x?q=${'q'.repeat(50_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    ],
    [
      '20 KB of cookies',
      `GET /small/x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nCookie: a=${'c'.repeat(20_000)}\r\n\r\n`,
    ],
    [
      'a body behind a long path',
      `POST /small/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 5\r\n\r\nhello`,
    ],
  ]) {
    const answer = await raw('gateway', request!);
    assertRefusal(t, answer, 431, 'headers_too_large', what!);
    t.regex(JSON.parse(answer.body).message, /plugins\.gateway\.proxy\.maxForwardedHeadBytes/);
  }
  t.is(upstreamRequests, before + 1, 'only the request within the limit reached the upstream');
});

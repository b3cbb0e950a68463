import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import test, { type ExecutionContext } from 'ava';
import { rawRequest, startTestRuntime, type TestRuntime, testFolder } from 'vela/testing';
import {
  admin,
  closedPort,
  createApp,
  createMapping,
  eventually,
  type LocalServer,
  startGateway,
  startServer,
} from './fixtures.js';

let vela: TestRuntime;
let upstream: LocalServer;
let token: string;
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];

const FIFTY_MB = 50 * 1024 * 1024;
const uploadClosed: boolean[] = [];

/** Deterministic bytes made chunk by chunk, never held whole. */
function generated(total: number): Readable {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024);
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(chunk.length, total - sent);
      for (let i = 0; i < n; i += 4) chunk.writeUInt32LE((sent + i) >>> 0, i);
      sent += n;
      this.push(Buffer.from(chunk.subarray(0, n)));
    },
  });
}

async function digestOf(stream: Readable): Promise<{ hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const part of stream) {
    hash.update(part as Buffer);
    bytes += (part as Buffer).length;
  }
  return { hash: hash.digest('hex'), bytes };
}

test.before(async () => {
  upstream = await startServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    if (req.url!.startsWith('/api/big-download')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void pipeline(generated(FIFTY_MB), res).catch(() => undefined);
    }
    if (req.url!.startsWith('/api/early')) {
      // Answers at once and streams for longer than the mapping's 3 s timeout, reading the body as it goes.
      res.writeHead(200, { 'content-type': 'text/plain' });
      req.resume();
      let n = 0;
      const timer = setInterval(() => {
        res.write(`chunk ${n}\n`);
        if (++n === 25) {
          clearInterval(timer);
          res.end();
        }
      }, 150);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (req.url!.startsWith('/api/no-content')) {
      res.writeHead(req.url!.endsWith('304') ? 304 : 204, { etag: '"v1"' });
      return void res.end();
    }
    if (req.url!.startsWith('/api/cut')) {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    if (req.url!.startsWith('/api/upload-abort')) {
      // Reads slowly and reports when its request goes away.
      req.on('close', () => uploadClosed.push(req.readableEnded));
      req.on('data', () => undefined);
      return;
    }
    if (req.url!.startsWith('/api/switch')) {
      // Switches protocols though the request asked for no upgrade.
      req.socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      return;
    }
    if (req.url!.startsWith('/api/slow')) {
      const timer = setTimeout(() => res.end('late'), 6000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    // Echo: the request body's SHA-256 and size, plus what the upstream saw.
    void digestOf(req).then(({ hash, bytes }) => {
      const body = JSON.stringify({ method: req.method, url: req.url, sha256: hash, bytes });
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'x-upstream': 'yes',
        connection: 'keep-alive, x-hop',
        'x-hop': 'drop me',
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end(body);
    });
  });
  vela = await startGateway();
  // A timeout a loaded test machine never reaches by accident, short enough for the timeout tests.
  await createMapping(vela, { context: '/proxy/shop/v1', url: `${upstream.url}/api`, timeoutMs: 3000 });
  await createMapping(vela, { context: '/proxy/shop/v1/orders', url: `${upstream.url}/orders-service` });
  await createMapping(vela, { context: '/proxy/down/x', url: `http://127.0.0.1:${await closedPort()}/` });
  token = (await createApp(vela)).accessToken!;
});

test.after.always(async () => {
  await vela?.stop();
  await upstream?.close();
});

const bearer = () => ({ authorization: `Bearer ${token}` });
/** A GET through node:http, its target sent as written (fetch would normalize the dots away). */
const rawGet = (target: string) => rawRequest(vela.url('gateway'), target, { headers: bearer() });

/** `path` asked for through the gateway as the app answers `status` with the JSON `error`. */
async function answersError(t: ExecutionContext, path: string, status: number, error: string): Promise<void> {
  const res = await vela.fetch('gateway', path, { headers: bearer() });
  t.is(res.status, status, path);
  t.like(await res.json(), { error }, path);
}

/** Each of `paths`, sent as written, is refused with 400. */
async function refusesEach(t: ExecutionContext, paths: string[]): Promise<void> {
  for (const path of paths) t.is((await rawGet(path)).status, 400, path);
}

test('GET /<name>/<sub>/more?x=1 reaches the upstream URL + /more?x=1 with the upstream status and headers', async (t) => {
  const res = await vela.fetch('gateway', '/shop/v1/items/42?x=1&y=a%20b', {
    headers: { ...bearer(), accept: 'application/json', 'content-type': 'application/json', 'x-custom': 'kept' },
  });
  t.is(res.status, 200);
  t.is(res.headers.get('x-upstream'), 'yes');
  t.is(res.headers.get('x-hop'), null, "a header the upstream's Connection names is hop-by-hop");
  t.deepEqual(res.headers.getSetCookie(), ['a=1', 'b=2']);
  const body = (await res.json()) as { url: string; method: string };
  t.is(body.url, '/api/items/42?x=1&y=a%20b');
  const request = seen.find((s) => s.url === '/api/items/42?x=1&y=a%20b')!;
  t.is(request.headers['x-custom'], 'kept');
  t.is(request.headers.accept, 'application/json');
  t.is(request.headers.authorization, undefined, "the gateway's bearer token stays at the gateway");
  t.is(request.headers.host, `127.0.0.1:${upstream.port}`);
  t.is(request.headers['x-forwarded-for'], '127.0.0.1');
  t.is(request.headers['x-forwarded-proto'], 'http');
  t.is(request.headers['x-forwarded-host'], new URL(vela.url('gateway')).host);
});

test("a client's X-Forwarded-For is extended, its X-Forwarded-Host replaced, and headers its Connection names dropped", async (t) => {
  const status = await new Promise<number>((resolve, reject) => {
    http
      .get(
        new URL(vela.url('gateway', '/shop/v1/fwd')),
        {
          headers: {
            ...bearer(),
            'x-forwarded-for': '10.0.0.1, 10.0.0.2',
            'x-forwarded-host': 'spoofed.example',
            connection: 'keep-alive, x-private',
            'x-private': 'hop',
            'x-kept': 'end-to-end',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      )
      .on('error', reject);
  });
  t.is(status, 200);
  const request = seen.find((s) => s.url === '/api/fwd')!;
  t.is(request.headers['x-forwarded-for'], '10.0.0.1, 10.0.0.2, 127.0.0.1');
  t.is(request.headers['x-forwarded-host'], new URL(vela.url('gateway')).host);
  t.is(request.headers['x-private'], undefined);
  t.is(request.headers['x-kept'], 'end-to-end');
});

test('a request target in absolute form (GET http://host/<name>/... HTTP/1.1) is proxied like its path', async (t) => {
  const { host } = new URL(vela.url('gateway'));
  const answer = await rawGet(`http://${host}/shop/v1/absolute?x=1`);
  t.is(answer.status, 200);
  t.is(JSON.parse(answer.body).url, '/api/absolute?x=1');
});

test('the longest matching sub-path wins, and the original /proxy/ prefix is accepted too', async (t) => {
  const orders = (await (await vela.fetch('gateway', '/shop/v1/orders/7', { headers: bearer() })).json()) as {
    url: string;
  };
  t.is(orders.url, '/orders-service/7');
  const prefixed = (await (await vela.fetch('gateway', '/proxy/shop/v1/x', { headers: bearer() })).json()) as {
    url: string;
  };
  t.is(prefixed.url, '/api/x');
  const exact = (await (await vela.fetch('gateway', '/shop/v1', { headers: bearer() })).json()) as { url: string };
  t.is(exact.url, '/api');
});

for (const method of ['POST', 'PUT', 'DELETE'] as const) {
  test(`${method} forwards the method, body and status`, async (t) => {
    const payload = JSON.stringify({ hello: method });
    const res = await vela.fetch('gateway', '/shop/v1/things?id=3', {
      method,
      headers: { ...bearer(), 'content-type': 'application/json' },
      body: payload,
    });
    t.is(res.status, method === 'POST' ? 201 : 200);
    const body = (await res.json()) as { method: string; url: string; sha256: string; bytes: number };
    t.is(body.method, method);
    t.is(body.url, '/api/things?id=3');
    t.is(body.sha256, createHash('sha256').update(payload).digest('hex'));
    t.is(body.bytes, Buffer.byteLength(payload));
  });
}

/**
 * A request through node:http, its body written by `send` (framed as the test chooses): the status and the JSON answer.
 */
function requestJson<T>(
  target: URL,
  options: http.RequestOptions,
  send: (req: http.ClientRequest) => void,
): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, options, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (c) => (text += c))
        .on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    send(req);
  });
}

test('a chunked body on a DELETE reaches the upstream framed and whole', async (t) => {
  const answer = await requestJson<{ method: string; sha256: string; bytes: number }>(
    new URL(vela.url('gateway', '/shop/v1/things/9')),
    { method: 'DELETE', headers: { ...bearer(), 'transfer-encoding': 'chunked' } },
    (req) => {
      req.write('first;');
      req.end('second');
    },
  );
  t.is(answer.status, 200);
  t.like(answer.body, {
    method: 'DELETE',
    bytes: 12,
    sha256: createHash('sha256').update('first;second').digest('hex'),
  });
});

test('a 50 MB request body streams to the upstream and a 50 MB response streams back', async (t) => {
  const target = new URL(vela.url('gateway', '/shop/v1/upload'));
  const upload = await requestJson<{ sha256: string; bytes: number }>(
    target,
    { method: 'PUT', headers: { ...bearer(), 'content-type': 'application/octet-stream' } },
    (req) => generated(FIFTY_MB).pipe(req),
  );
  const expected = await digestOf(generated(FIFTY_MB));
  t.is(upload.status, 200);
  t.deepEqual(upload.body, { ...upload.body, sha256: expected.hash, bytes: FIFTY_MB });
  t.is(
    seen.find((s) => s.url === '/api/upload')!.headers['transfer-encoding'],
    'chunked',
    'streamed, not buffered into a Content-Length',
  );

  const download = await new Promise<{ hash: string; bytes: number }>((resolve, reject) => {
    http
      .get(new URL(vela.url('gateway', '/shop/v1/big-download')), { headers: bearer() }, (res) =>
        digestOf(res).then(resolve, reject),
      )
      .on('error', reject);
  });
  t.deepEqual(download, expected);
});

test('a missing, malformed, unknown or revoked token gets 401 with an empty body and WWW-Authenticate: Bearer', async (t) => {
  const app = await createApp(vela, { name: 'short-lived' });
  const cases: Array<[string, Record<string, string>]> = [
    ['no header', {}],
    ['basic scheme', { authorization: 'Basic Zm9vOmJhcg==' }],
    ['malformed', { authorization: 'Bearer' }],
    ['unknown token', { authorization: 'Bearer 0123456789abcdef0123456789abcdef' }],
    ['not hex', { authorization: `Bearer ${'z'.repeat(32)}` }],
  ];
  for (const [what, headers] of cases) {
    const res = await vela.fetch('gateway', '/shop/v1/a', { headers });
    t.is(res.status, 401, what);
    t.is(await res.text(), '', what);
    t.regex(res.headers.get('www-authenticate') ?? '', /^Bearer realm="vela-gateway"/, what);
  }
  t.is(
    (await vela.fetch('gateway', '/shop/v1/a', { headers: { authorization: `Bearer ${app.accessToken}` } })).status,
    200,
  );
  t.is((await admin(vela, 'DELETE', `/api/v2/app/${app.id}/accessTokens`)).status, 200);
  const revoked = await vela.fetch('gateway', '/shop/v1/a', {
    headers: { authorization: `Bearer ${app.accessToken}` },
  });
  t.is(revoked.status, 401);
  t.is(revoked.headers.get('www-authenticate'), 'Bearer realm="vela-gateway", error="invalid_token"');
});

test('a path no mapping of the name serves gets 404 JSON; an unknown name falls through to the 404 of the service', async (t) => {
  await answersError(t, '/shop/v2/a', 404, 'mapping_not_found');
  await answersError(t, '/nothing-here/a', 404, 'not_found');
  await refusesEach(t, ['/shop/v1/../secret', '/shop/v1/%2E%2e/secret']);
});

test('dot segments hidden behind encoded slashes, backslashes or a ";" parameter get 400, and cannot leave the upstream base path', async (t) => {
  await refusesEach(t, [
    '/shop/v1/a/..%2f..%2fsecret',
    '/shop/v1/a/..%2F..%2Fsecret',
    '/shop/v1/a/..\\..\\secret',
    '/shop/v1/a/..%5c..%5csecret',
    '/shop/v1/..;x=1/secret',
    '/shop/v1/a/%2e%2e%2fsecret',
  ]);
  t.false(
    seen.some((s) => s.url.includes('secret')),
    'none of them reached the upstream',
  );
  // An encoded slash inside a name, or dots inside a segment, are no dot segments.
  t.is((await rawGet('/shop/v1/files/a%2Fb')).status, 200);
  t.is((await rawGet('/shop/v1/files/v1..2;x=..')).status, 200);
});

test('an upstream that refuses the connection gives 502 JSON; one slower than the mapping timeout gives 504 JSON', async (t) => {
  await answersError(t, '/down/x/y', 502, 'bad_gateway');
  // The upstream answers 200 after 6 s: a 504 means the gateway gave up at the mapping's 3 s timeout, before it.
  await answersError(t, '/shop/v1/slow', 504, 'gateway_timeout');
});

test('an upstream that stops reading the request body gives 504 after the mapping timeout without progress', async (t) => {
  // Accepts connections and never reads from them: the body fills the socket buffers and stalls.
  const sockets: net.Socket[] = [];
  const deaf = net.createServer((socket) => {
    sockets.push(socket);
    socket.pause();
  });
  await new Promise<void>((ok) => deaf.listen(0, '127.0.0.1', ok));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    deaf.close();
  });
  await createMapping(vela, {
    context: '/proxy/deaf/in',
    url: `http://127.0.0.1:${(deaf.address() as net.AddressInfo).port}/`,
    timeoutMs: 300,
  });
  const { port } = new URL(vela.url('gateway'));
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/deaf/in/upload',
        method: 'PUT',
        headers: { ...bearer(), 'content-length': String(FIFTY_MB) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < FIFTY_MB && req.write(chunk)) sent += chunk.length;
      if (sent < FIFTY_MB)
        req.once('drain', () => {
          sent += chunk.length;
          pump();
        });
    };
    pump();
  });
  t.is(status, 504, 'the client got its answer instead of waiting for ever');
});

test('an upstream that switches protocols unasked gets 502 JSON at once, not a client left waiting', async (t) => {
  // A client left waiting would get the mapping's 504 after its 3 s timeout, not this 502.
  const res = await vela.fetch('gateway', '/shop/v1/switch', { headers: bearer(), signal: AbortSignal.timeout(5000) });
  t.is(res.status, 502);
  t.like(await res.json(), { error: 'bad_gateway' });
});

test('an upstream that answers before reading the whole request may stream past the timeout', async (t) => {
  // The body trickles in for 500 ms while the answer streams for 3.75 s: the request ends after the answer began.
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, 100));
      controller.enqueue(new TextEncoder().encode('part;'));
      if (++sent === 5) controller.close();
    },
  });
  const res = await vela.fetch('gateway', '/shop/v1/early', {
    method: 'POST',
    headers: bearer(),
    body,
    duplex: 'half',
  } as RequestInit);
  t.is(res.status, 200);
  t.is((await res.text()).split('\n').filter(Boolean).length, 25);
});

test('an upstream 204 or 304 passes through with its headers and no body', async (t) => {
  for (const [path, status] of [
    ['/shop/v1/no-content/204', 204],
    ['/shop/v1/no-content/304', 304],
  ] as const) {
    const res = await vela.fetch('gateway', path, { headers: bearer() });
    t.is(res.status, status);
    t.is(res.headers.get('etag'), '"v1"');
    t.is(await res.text(), '');
  }
});

test("an upstream that breaks off mid-body breaks off the client's response too, instead of leaving it waiting", async (t) => {
  const { port } = new URL(vela.url('gateway'));
  const outcome = await new Promise<string>((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/shop/v1/cut', headers: bearer() }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve('ended'));
        res.on('error', () => resolve('broken off'));
      })
      .on('error', () => resolve('broken off'));
  });
  t.is(outcome, 'broken off');
});

test('a client that goes away mid-upload takes the upstream request with it', async (t) => {
  const { port } = new URL(vela.url('gateway'));
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: '/shop/v1/upload-abort',
    method: 'PUT',
    headers: { ...bearer(), 'content-length': String(FIFTY_MB) },
  });
  req.on('error', () => undefined);
  req.write(Buffer.alloc(256 * 1024));
  await eventually(() => seen.some((s) => s.url === '/api/upload-abort'), 'the upload reaching the upstream');
  req.destroy();
  await eventually(() => uploadClosed.length > 0, 'the upstream request closing');
  t.deepEqual(uploadClosed, [false], 'closed before its body ended');
});

test('a stored mapping whose context a later rule refuses does not stop the gateway from starting; the others are served', async (t) => {
  const dataDir = testFolder(t, 'gateway');
  const first = await startTestRuntime({ plugins: ['gateway'], dataDir });
  await createMapping(first, { context: '/proxy/kept/a', url: `${upstream.url}/api` });
  const stamp = new Date().toISOString();
  await first.runtime.db('gateway_mappings').insert({
    id: 'stored-before',
    name: 'old',
    context: '/proxy/old/%2e%2e',
    url: `${upstream.url}/`,
    description: '',
    timeout_ms: 1000,
    health_check_path: null,
    created_at: stamp,
    updated_at: stamp,
  });
  const ownToken = (await createApp(first)).accessToken!;
  await first.stop();
  const again = await startTestRuntime({ plugins: ['gateway'], dataDir });
  t.teardown(() => again.stop());
  t.is((await again.fetch('gateway', '/kept/a/x', { headers: { authorization: `Bearer ${ownToken}` } })).status, 200);
  t.true(
    again.logs.some(
      (l) => l.msg.startsWith('a stored mapping has a context the proxy cannot serve') && l.mapping === 'stored-before',
    ),
  );
});

test('changing or deleting a mapping takes effect on the next request', async (t) => {
  const other = await startServer((req, res) => res.end(JSON.stringify({ other: true, url: req.url })));
  t.teardown(() => other.close());
  const mapping = (
    await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/moving/a', url: `${upstream.url}/first` })
  ).body;
  t.is(
    ((await (await vela.fetch('gateway', '/moving/a/z', { headers: bearer() })).json()) as { url: string }).url,
    '/first/z',
  );
  await admin(vela, 'PUT', `/api/v2/mapping/${mapping.id}`, { url: `${other.url}/second` });
  t.deepEqual(await (await vela.fetch('gateway', '/moving/a/z', { headers: bearer() })).json(), {
    other: true,
    url: '/second/z',
  });
  await admin(vela, 'DELETE', `/api/v2/mapping/${mapping.id}`);
  t.is((await vela.fetch('gateway', '/moving/a/z', { headers: bearer() })).status, 404);
});

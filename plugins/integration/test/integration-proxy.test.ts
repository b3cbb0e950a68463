import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import test from 'ava';
import {
  type RawAnswer,
  type RawRequestOptions,
  rawRequest,
  startTestRuntime,
  type TestRuntime,
  testFolder,
} from 'vela/testing';
import { json } from '../../search/test/fixtures.js';

// The integration instances and their proxy against an upstream on 127.0.0.1 that the test starts (allowed by
// the operator's allowlist). Paths are sent with node:http, byte for byte, so no client normalizes them first.

interface Upstream {
  port: number;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const requests: Upstream['requests'] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/api/v2/stream-in')) {
      // Answers at once, then echoes each chunk of the request as it arrives: streaming both ways.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('ready\n');
      req.on('data', (chunk: Buffer) => res.write(`got:${chunk.toString()}\n`));
      req.on('end', () => res.end('done\n'));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: req.method ?? '', url, headers: req.headers, body });
      if (url.startsWith('/api/v2/stream-out')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first\n');
        setTimeout(() => res.end('second\n'), 300);
      } else if (url.startsWith('/api/v2/moved')) {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (url.startsWith('/api/v2/cookies')) {
        res
          .writeHead(200, {
            'set-cookie': 'vela_session=stolen; Path=/',
            'x-upstream': 'yes',
            'access-control-allow-origin': 'https://evil.example',
          })
          .end('{}');
      } else if (url.startsWith('/api/v2/huge')) {
        res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024));
      } else if (url.startsWith('/api/v2/endless')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 5);
        res.on('close', () => clearInterval(timer));
      } else if (url.startsWith('/api/v2/slow')) {
        setTimeout(() => res.writeHead(200).end('late'), 3000);
      } else {
        res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
        res.end(JSON.stringify({ method: req.method, url, body, key: req.headers.key ?? null }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let upstream: Upstream;
let vela: TestRuntime;
const SECRET = 'connector-key-0123456789-abcdef';
/** Writes are forwarded only by instances that list them. */
const EVERY_METHOD = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

test.before(async () => {
  upstream = await startUpstream();
  vela = await startTestRuntime({
    plugins: ['integration'],
    config: {
      runtime: { network: { allowHosts: [`127.0.0.1:${upstream.port}`] } },
      plugins: { integration: { timeoutMs: 1500, maxRequestBytes: 64 * 1024, maxResponseBytes: 1024 * 1024 } },
    },
  });
});
test.after.always(async () => {
  await vela?.stop();
  await upstream?.close();
});

const admin = (method: string, path: string, body?: unknown) => json(vela, method, path, body);

/** A raw HTTP request through the proxy: the path goes out exactly as written. */
const raw = (method: string, target: string, options: RawRequestOptions = {}): Promise<RawAnswer> =>
  rawRequest(vela.url('search', '/'), target, { method, ...options });

async function createInstance(extra: Record<string, unknown> = {}): Promise<string> {
  const created = await admin('POST', '/api/integration', {
    title: `Upstream ${Math.random().toString(36).slice(2, 8)}`,
    vendor: 'HTTP',
    endpoint: `http://127.0.0.1:${upstream.port}/api/v2`,
    headers: [{ name: 'Key', value: SECRET }],
    ...extra,
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.id as string;
}

test.serial(
  'instances: create, list, get, update and delete; header values stored encrypted and never answered',
  async (t) => {
    t.timeout(30_000);
    const created = await admin('POST', '/api/integration', {
      title: 'Connector upstream',
      description: 'for the console',
      vendor: 'HTTP',
      endpoint: `http://127.0.0.1:${upstream.port}/api/v2`,
      allowedPaths: ['/connector'],
      headers: [{ name: 'Key', value: SECRET }],
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const { id } = created.body;
    t.deepEqual(created.body.headers, [{ name: 'Key', hint: '…cdef' }]);
    t.false(JSON.stringify(created.body).includes(SECRET));
    t.is(created.body.enabled, true);
    t.deepEqual(created.body.allowedMethods, ['GET', 'HEAD'], 'reads only, unless the instance lists writes');

    const db = vela.runtime.resolve('db') as any;
    const row = await db('integration_instances').where({ id }).first();
    t.false(row.headers.includes(SECRET), 'the value is not stored in the clear');
    t.regex(row.headers, /"value":"v1:/);

    t.true((await admin('GET', '/api/integration')).body.some((i: { id: string }) => i.id === id));
    t.is((await admin('GET', `/api/integration/${id}`)).body.title, 'Connector upstream');
    const renamed = await admin('PUT', `/api/integration/${id}`, { title: 'Renamed', headers: [{ name: 'key' }] });
    t.is(renamed.status, 200, JSON.stringify(renamed.body));
    t.deepEqual(
      renamed.body.headers,
      [{ name: 'key', hint: '…cdef' }],
      'a header given without a value keeps the stored one',
    );
    const through = await raw('GET', `/api/v2/integration/${id}/connector/status`);
    t.is(JSON.parse(through.body).key, SECRET, 'the kept value still decrypts and is added');
    t.is((await admin('PUT', `/api/integration/${id}`, { headers: [{ name: 'Other' }] })).status, 400);

    t.is((await admin('DELETE', `/api/integration/${id}`)).body.deleted, true);
    t.is((await admin('GET', `/api/integration/${id}`)).status, 404);
    t.is((await raw('GET', `/api/v2/integration/${id}/connector/status`)).status, 404);
  },
);

test.serial(
  'administration needs a key or the administrator; vendors and the empty structure are listed',
  async (t) => {
    t.timeout(30_000);
    t.is((await vela.fetch('search', '/api/integration')).status, 401);
    const vendors = await admin('GET', '/api/integration/vendor');
    t.deepEqual(
      vendors.body.map((v: { id: string }) => v.id),
      ['CONNECTOR', 'HTTP'],
    );
    const structure = await admin('GET', '/api/integration/structure');
    t.is(structure.body.vendor, 'HTTP');
    t.deepEqual(structure.body.headers, []);
    t.deepEqual(structure.body.allowedMethods, ['GET', 'HEAD']);
  },
);

test.serial(
  'endpoints at internal addresses are refused when saved unless the operator allows the host; bad header names are refused',
  async (t) => {
    t.timeout(30_000);
    const upstreamAt = `http://127.0.0.1:${upstream.port}/`;
    const cases: Array<[string, Record<string, unknown>, RegExp | null]> = [
      [
        'Metadata',
        { endpoint: 'http://169.254.169.254/latest' },
        /body\.endpoint is refused by the outbound address guard \(cloud metadata\).*runtime\.network\.allowHosts/,
      ],
      ['Other port', { endpoint: 'http://127.0.0.1:1/' }, /loopback/],
      [
        'Host header',
        { endpoint: upstreamAt, headers: [{ name: 'Host', value: 'x' }] },
        /Host is set by the proxy itself/,
      ],
      ['Split', { endpoint: upstreamAt, headers: [{ name: 'X-A', value: 'a\r\nX-B: b' }] }, null],
    ];
    for (const [title, instance, message] of cases) {
      const refused = await admin('POST', '/api/integration', { title, vendor: 'HTTP', ...instance });
      t.is(refused.status, 400, title);
      if (message) t.regex(refused.body.message, message, title);
    }
  },
);

test.serial(
  'each method goes through with its path, query string and body; the instance headers are added and the client credentials are not passed on',
  async (t) => {
    t.timeout(30_000);
    const id = await createInstance({ allowedMethods: EVERY_METHOD });
    for (const method of EVERY_METHOD) {
      const body = method === 'GET' ? undefined : JSON.stringify({ method, n: 1 });
      const res = await raw(method, `/api/v2/integration/${id}/items/42?fq=a%20b&x=1`, {
        body,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          key: 'client-key',
          authorization: 'Basic abc',
          cookie: 'vela_session=s; other=1',
          'x-csrf-token': 'csrf',
          'x-custom': 'not forwarded',
          accept: 'application/json',
        },
      });
      t.is(res.status, 201, `${method}: ${res.body}`);
      t.is(res.headers['x-upstream'], 'yes');
      const echoed = JSON.parse(res.body);
      t.deepEqual(echoed, { method, url: '/api/v2/items/42?fq=a%20b&x=1', body: body ?? '', key: SECRET }, method);
      const seen = upstream.requests.at(-1)!;
      for (const header of ['authorization', 'cookie', 'x-csrf-token', 'x-custom'])
        t.is(seen.headers[header], undefined, `${method} ${header}`);
      t.is(seen.headers.accept, 'application/json');
      t.is(seen.headers.host, `127.0.0.1:${upstream.port}`);
    }
    const head = await raw('HEAD', `/api/v2/integration/${id}/items`);
    t.is(head.status, 201);
  },
);

test.serial(
  'request and answer bodies stream: the upstream answers chunk by chunk while the client is still sending',
  async (t) => {
    t.timeout(30_000);
    const id = await createInstance({ allowedMethods: ['GET', 'POST'] });
    const url = new URL(vela.url('search', '/'));
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/api/v2/integration/${id}/stream-in`,
        headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      });
      req.on('error', reject);
      req.write('one');
      req.on('response', (res) => {
        let pending = '';
        res.on('data', (chunk: Buffer) => {
          pending += chunk.toString();
          const parts = pending.split('\n');
          pending = parts.pop()!;
          for (const line of parts) {
            lines.push(line);
            // Each next chunk is sent only once the previous one came back through the proxy.
            if (line === 'got:one') req.write('two');
            if (line === 'got:two') req.end();
          }
        });
        res.on('end', () => resolve());
      });
    });
    t.deepEqual(lines, ['ready', 'got:one', 'got:two', 'done']);

    const began = Date.now();
    const res = await vela.fetch('search', `/api/v2/integration/${id}/stream-out`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    const firstAt = Date.now() - began;
    t.is(new TextDecoder().decode(first.value), 'first\n');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    t.is(rest, 'second\n');
    t.true(firstAt < 250, `the first chunk arrived after ${firstAt} ms, before the upstream had finished (300 ms)`);
  },
);

test.serial(
  'unknown and disabled instances are 404; a method the instance does not forward is 405 with Allow',
  async (t) => {
    t.timeout(30_000);
    const unknown = await raw('GET', '/api/v2/integration/no-such-id/x');
    t.is(unknown.status, 404);
    t.deepEqual(JSON.parse(unknown.body), {
      error: 'integration_not_found',
      message: 'no integration instance with id "no-such-id"',
    });
    const id = await createInstance({ enabled: false });
    t.is((await raw('GET', `/api/v2/integration/${id}/x`)).status, 404);
    const readOnly = await createInstance({ allowedMethods: ['GET'] });
    const post = await raw('POST', `/api/v2/integration/${readOnly}/x`, {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    t.is(post.status, 405);
    t.is(post.headers.allow, 'GET');
    t.is((await raw('HEAD', `/api/v2/integration/${readOnly}/x`)).status, 201, 'HEAD goes with GET');
  },
);

test.serial(
  'an instance that lists no methods forwards GET and HEAD only: a write is 405 and never reaches the upstream',
  async (t) => {
    t.timeout(30_000);
    const id = await createInstance();
    const before = upstream.requests.length;
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await raw(method, `/api/v2/integration/${id}/connector/source`, {
        body: '{"name":"x"}',
        headers: { 'content-type': 'application/json' },
      });
      t.is(res.status, 405, method);
      t.deepEqual(JSON.parse(res.body), {
        error: 'method_not_allowed',
        message: `this integration instance forwards GET, HEAD, not ${method}`,
      });
      t.is(res.headers.allow, 'GET, HEAD');
    }
    t.is(upstream.requests.length, before, 'no write reached the upstream');
    t.is((await raw('GET', `/api/v2/integration/${id}/items`)).status, 201);
    t.is((await raw('HEAD', `/api/v2/integration/${id}/items`)).status, 201);
  },
);

test.serial(
  'a request in absolute form (GET http://host:port/api/v2/integration/<id>/...) reads the id from its path',
  async (t) => {
    t.timeout(30_000);
    const id = await createInstance();
    const origin = new URL(vela.url('search', '/')).origin;
    const res = await raw('GET', `${origin}/api/v2/integration/${id}/items/7?x=1`);
    t.is(res.status, 201, res.body);
    t.is(JSON.parse(res.body).url, '/api/v2/items/7?x=1');
    const refused = await raw('GET', `${origin}/api/v2/integration/${id}/a/..;/b`);
    t.is(refused.status, 403, 'the path rules apply to it as to any other');
  },
);

test.serial(
  'every path family of SSRF is refused with 403 naming the rule, and the upstream gets nothing',
  async (t) => {
    t.timeout(30_000);
    const id = await createInstance({ allowedPaths: ['/public'] });
    const before = upstream.requests.length;
    const cases: Array<[string, string]> = [
      ['/public/../admin', 'path traversal'],
      ['/public/%2e%2e/admin', 'path traversal'],
      ['/public/%2E%2e/admin', 'path traversal'],
      ['/public/%252e%252e/admin', 'path traversal'],
      ['/public/.%2e/admin', 'path traversal'],
      ['/public/./x', 'path traversal'],
      ['/public/..;/admin', 'path traversal'],
      ['/public/..%3b/admin', 'path traversal'],
      ['/public/..%3Bx=1/admin', 'path traversal'],
      ['/public/.;/x', 'path traversal'],
      ['//evil.example/public', 'empty segment'],
      ['/%2f%2fevil.example/public', 'empty segment'],
      ['/public//evil.example', 'empty segment'],
      ['/public@evil.example', 'at sign'],
      ['/public/%40evil.example', 'at sign'],
      ['/public\\..\\admin', 'backslash'],
      ['/public/%5c..%5cadmin', 'backslash'],
      ['/http:%2f%2fevil.example/public', 'absolute URL'],
      ['/http:evil.example', 'absolute URL'],
      ['/public/%00', 'control character'],
      ['/private/x', 'not an allowed path'],
      ['/publicity', 'not an allowed path'],
    ];
    for (const [path, rule] of cases) {
      const res = await raw('GET', `/api/v2/integration/${id}${path}`);
      t.is(res.status, 403, `${path}: ${res.body}`);
      const body = JSON.parse(res.body);
      t.is(body.error, 'path_refused', path);
      t.true(body.message.includes(`(${rule})`), `${path}: ${body.message}`);
    }
    const malformed = await raw('GET', `/api/v2/integration/${id}/public/%zz`);
    t.is(malformed.status, 400, 'a malformed escape is refused by the router before the proxy sees it');
    t.is(JSON.parse(malformed.body).error, 'bad_request');
    t.is(upstream.requests.length, before, 'no refused path reached the upstream');
    t.is((await raw('GET', `/api/v2/integration/${id}/public/ok`)).status, 201, 'an allowed path goes through');
  },
);

test.serial('redirects are relayed, not followed; upstream cookies, CORS and security headers stay out', async (t) => {
  t.timeout(30_000);
  const id = await createInstance();
  const moved = await raw('GET', `/api/v2/integration/${id}/moved`);
  t.is(moved.status, 302);
  t.is(moved.headers.location, 'http://169.254.169.254/latest/meta-data/');
  const cookies = await raw('GET', `/api/v2/integration/${id}/cookies`);
  t.is(cookies.status, 200);
  t.is(cookies.headers['set-cookie'], undefined);
  t.is(cookies.headers['x-upstream'], 'yes');
  t.not(cookies.headers['access-control-allow-origin'], 'https://evil.example');
  t.regex(String(cookies.headers['content-security-policy']), /default-src 'none'/);
});

/** A chunked POST (no Content-Length): the body goes out in 8 KiB chunks, each after the previous was written. */
function chunked(path: string, bytes: number): Promise<{ status: number; body: string }> {
  const url = new URL(vela.url('search', '/'));
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path,
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    const send = async () => {
      for (let sent = 0; sent < bytes && !req.destroyed; sent += 8192) {
        if (!req.write(Buffer.alloc(8192, 0x78))) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    };
    send().catch(reject);
  });
}

test.serial(
  'bounds: a request body over the limit is 413, an answer over the limit 502 (or cut), a slow upstream 504',
  async (t) => {
    t.timeout(30_000);
    const id = await createInstance({ allowedMethods: ['GET', 'POST'] });
    const big = await raw('POST', `/api/v2/integration/${id}/items`, {
      body: 'x'.repeat(70 * 1024),
      headers: { 'content-type': 'text/plain' },
    });
    t.is(big.status, 413);
    t.is(JSON.parse(big.body).error, 'payload_too_large');
    const bigChunked = await chunked(`/api/v2/integration/${id}/items`, 70 * 1024);
    t.is(
      bigChunked.status,
      413,
      `a chunked body has no length to check first, and is refused as it passes the limit: ${bigChunked.body}`,
    );
    t.deepEqual(JSON.parse(bigChunked.body), {
      error: 'payload_too_large',
      message: 'the request body is larger than the proxy limit of 65536 bytes (plugins.integration.maxRequestBytes)',
    });
    t.is(
      (await chunked(`/api/v2/integration/${id}/items`, 32 * 1024)).status,
      201,
      'a chunked body under the limit goes through',
    );
    const huge = await raw('GET', `/api/v2/integration/${id}/huge`);
    t.is(huge.status, 502);
    t.is(JSON.parse(huge.body).error, 'upstream_response_too_large');
    const endless = await raw('GET', `/api/v2/integration/${id}/endless`).catch((error: Error) => ({
      status: -1,
      body: error.message,
      headers: {},
    }));
    t.true(
      endless.status === -1 || endless.body.length <= 1024 * 1024 + 64 * 1024,
      'an answer that grows past the limit is cut',
    );
    const slow = await raw('GET', `/api/v2/integration/${id}/slow`);
    t.is(slow.status, 504);
    t.is(JSON.parse(slow.body).error, 'upstream_timeout');
  },
);

test.serial('the proxy routes are public in the OpenAPI document, for every method', async (t) => {
  t.timeout(30_000);
  const doc = (await (await vela.fetch('search', '/v3/api-docs')).json()) as any;
  const operations = doc.paths['/api/v2/integration/{integrationId}/{rest}'];
  for (const method of ['get', 'post', 'put', 'delete', 'patch'])
    t.deepEqual(operations?.[method]?.security, [], method);
  t.truthy(doc.paths['/api/integration']?.post);
  t.truthy(doc.paths['/api/integration/vendor']?.get);
});

test.serial(
  'headers sealed with another key make the instance unavailable: 503 integration_secret_unreadable, the secret never shown',
  async (t) => {
    t.timeout(30_000);
    const dataDir = testFolder(t, 'integration-key');
    const config = { runtime: { network: { allowHosts: [`127.0.0.1:${upstream.port}`] } } };
    const first = await startTestRuntime({ plugins: ['integration'], dataDir, config });
    const created = await json(first, 'POST', '/api/integration', {
      id: 'sealed',
      title: 'Sealed',
      vendor: 'HTTP',
      endpoint: `http://127.0.0.1:${upstream.port}/api/v2`,
      headers: [{ name: 'Key', value: SECRET }],
    });
    t.is(created.status, 201);
    await first.stop();
    // The key the values were sealed with is gone: the next start makes a new one.
    rmSync(path.join(dataDir, 'integration', 'secret.key'));
    const second = await startTestRuntime({ plugins: ['integration'], dataDir, config });
    t.teardown(() => second.stop());
    const before = upstream.requests.length;
    const res = await second.fetch('search', '/api/v2/integration/sealed/items');
    const body = await res.json();
    t.is(res.status, 503);
    t.deepEqual(body, {
      error: 'integration_secret_unreadable',
      message:
        'integration instance "sealed" is unavailable: its stored headers cannot be decrypted with this process\'s key (VELA_SECRET_KEY, or <data>/integration/secret.key); an administrator must set them again',
    });
    t.is(upstream.requests.length, before, 'nothing went upstream without its headers');
    // The operator learns of it from the log: the instance and the cause, at error level, without the secret.
    const logged = second.logs.filter((line) => JSON.stringify(line).includes('integration_secret_unreadable'));
    t.is(logged.length, 1, 'one log line for the one request');
    t.true(logged[0]!.level >= 50, 'logged as an error of the server, not as a refused request');
    t.regex(JSON.stringify(logged[0]), /integration instance \\"sealed\\" is unavailable/);
    t.false(JSON.stringify(second.logs).includes(SECRET), 'the secret is in no log line');
  },
);

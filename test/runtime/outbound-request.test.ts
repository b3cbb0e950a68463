import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import test from 'ava';
import { VelaError } from '../../runtime/errors.js';
import { ForwardPathRefused, forwardTarget } from '../../runtime/network/forward-path.js';
import { type HostResolver, OutboundGuard, OutboundRefused } from '../../runtime/network/outbound-guard.js';
import { connectionSpy } from './connection-spy.js';

// The outbound guard's streaming request, its path rules for reverse proxies, and `self:` allowlist entries.
// Nothing here sends traffic outside 127.0.0.0/8: names resolve through an injected resolver, every refusal is
// asserted to come before a connection (the loopback server counts the connections it gets), and the guards'
// connect hook (connectionSpy) records every connection about to open and stops any outside loopback.

const resolvesTo =
  (addresses: string[], seen: string[] = []): HostResolver =>
  async (hostname) => {
    seen.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function server(t: { teardown(fn: () => unknown): void }, handler: http.RequestListener) {
  let connections = 0;
  const s = http.createServer(handler);
  s.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  return { port: (s.address() as AddressInfo).port, connections: () => connections };
}

test('forwardTarget keeps the endpoint origin, appends the forwarded path to its path, and keeps the query string', (t) => {
  t.is(
    forwardTarget('http://svc.example:8080/api/v2', '/items/42', 'q=a%20b').href,
    'http://svc.example:8080/api/v2/items/42?q=a%20b',
  );
  t.is(forwardTarget('http://svc.example/api/v2/', '/x').href, 'http://svc.example/api/v2/x');
  t.is(forwardTarget('https://svc.example', '').href, 'https://svc.example/');
  t.is(
    forwardTarget('http://svc.example/base', '/a%20b/c', '', ['/a b']).pathname,
    '/base/a%20b/c',
    'prefixes compare decoded',
  );
});

test('forwardTarget refuses every path family, encoded or not, naming the rule', (t) => {
  const cases: Array<[string, string, string?]> = [
    ['/a/../b', 'path traversal'],
    ['/a/%2e%2e/b', 'path traversal'],
    ['/a/..;/b', 'path traversal'],
    ['/a/..;jsessionid=x/b', 'path traversal'],
    ['/a/..%3b/b', 'path traversal'],
    ['/a/..%253B/b', 'path traversal'],
    ['/a/%2e%2e;/b', 'path traversal'],
    ['/a/.;/b', 'path traversal'],
    ['/a/.;x', 'path traversal'],
    ['/a/;x/b', 'empty segment'],
    ['/a/%252e%252e/b', 'path traversal'],
    ['/a/%25252e%25252e/b', 'path traversal'],
    ['/..', 'path traversal'],
    ['/a/.', 'path traversal'],
    ['//evil.example/x', 'empty segment'],
    ['/%2F%2Fevil.example', 'empty segment'],
    ['/a//b', 'empty segment'],
    ['/@evil.example', 'at sign'],
    ['/a%40b', 'at sign'],
    ['/a\\b', 'backslash'],
    ['/a%5Cb', 'backslash'],
    ['/http://evil.example/', 'absolute URL'],
    ['/javascript:alert(1)', 'absolute URL'],
    ['/a%0d%0aX: y', 'control character'],
    ['/a%zz', 'malformed escape'],
    ['relative', 'relative path'],
    ['/other', 'not an allowed path', '/allowed'],
    ['/allowedx', 'not an allowed path', '/allowed'],
  ];
  for (const [path, rule, prefix] of cases) {
    const error = t.throws(
      () => forwardTarget('http://svc.example/api', path, '', prefix ? [prefix] : []),
      { instanceOf: ForwardPathRefused },
      path,
    );
    t.is(error?.rule, rule, path);
    t.is(error?.status, 403);
    t.is(error?.code, 'path_refused');
  }
  t.is(
    t.throws(() => forwardTarget('http://svc.example/', '/x', 'a=1#frag'), { instanceOf: ForwardPathRefused })?.rule,
    'control character',
  );
  t.is(forwardTarget('http://svc.example/api', '/allowed/x', '', ['/allowed']).pathname, '/api/allowed/x');
  const behindPrefix = t.throws(() => forwardTarget('http://svc/api', '/public/..;/admin', '', ['/public']), {
    instanceOf: ForwardPathRefused,
  });
  t.is(behindPrefix?.rule, 'path traversal', 'a ..; segment under an allowed prefix does not reach around it');
  t.is(
    forwardTarget('http://svc/api', '/public/a;v=1/b..c', '', ['/public']).pathname,
    '/api/public/a;v=1/b..c',
    'parameters and dots inside names pass',
  );
});

test('request: a name resolving to any internal range is refused in the lookup, before a connection; IP literals without a lookup', async (t) => {
  const s = await server(t, (_req, res) => res.end('reached'));
  const families: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['10.0.0.7', 'private'],
    ['172.20.1.1', 'private'],
    ['192.168.0.10', 'private'],
    ['100.64.1.1', 'shared address space (carrier-grade NAT)'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['fd12::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
  ];
  const spy = connectionSpy();
  for (const [address, rule] of families) {
    const guard = new OutboundGuard({ allowHosts: [], resolve: resolvesTo([address]), beforeConnect: spy.hook });
    const error = await t.throwsAsync(guard.request(`http://intranet.example:${s.port}/`), {
      instanceOf: OutboundRefused,
    });
    t.is(error?.rule, rule, address);
    await guard.close();
  }
  const seen: string[] = [];
  const literal = new OutboundGuard({
    allowHosts: [],
    resolve: resolvesTo(['93.184.216.34'], seen),
    beforeConnect: spy.hook,
  });
  t.teardown(() => literal.close());
  for (const url of [
    `http://2130706433:${s.port}/`,
    `http://0x7f000001:${s.port}/`,
    `http://0177.1:${s.port}/`,
    `http://[::ffff:7f00:1]:${s.port}/`,
  ]) {
    await t.throwsAsync(literal.request(url), { instanceOf: OutboundRefused }, url);
  }
  t.deepEqual(seen, []);
  t.is(s.connections(), 0, 'no refused request connected');
  t.deepEqual(spy.attempts, [], 'no connection was attempted');
});

test('request: an error of the request body that is a VelaError (a proxy body over its limit, 413) comes back as it is, not as unreachable', async (t) => {
  const s = await server(t, (req, res) => {
    req.resume();
    req.on('end', () => res.end('read'));
  });
  const guard = new OutboundGuard({ allowHosts: [`127.0.0.1:${s.port}`] });
  t.teardown(() => guard.close());
  const tooLarge = new VelaError('payload_too_large', 'the request body is too large', 413);
  const body = new Readable({ read() {} });
  body.push('first chunk');
  setTimeout(() => body.destroy(tooLarge), 50);
  const error = await t.throwsAsync(guard.request(`http://127.0.0.1:${s.port}/`, { method: 'POST', body }));
  t.is(error, tooLarge);
  const plain = new Readable({ read() {} });
  setTimeout(() => plain.destroy(new Error('disk gone')), 50);
  const other = await t.throwsAsync(guard.request(`http://127.0.0.1:${s.port}/`, { method: 'POST', body: plain }));
  t.is((other as VelaError).code, 'upstream_unreachable', 'any other failure is still 502');
});

test('request streams both ways, connects to the checked address with the name as Host, and never follows a redirect', async (t) => {
  const s = await server(t, (req, res) => {
    if (req.url === '/moved') return void res.writeHead(301, { location: 'http://169.254.169.254/' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(`host=${req.headers.host};`);
    req.on('data', (chunk: Buffer) => res.write(`[${chunk}]`));
    req.on('end', () => res.end());
  });
  const guard = new OutboundGuard({ allowHosts: ['service.internal'], resolve: resolvesTo(['127.0.0.1']) });
  t.teardown(() => guard.close());
  const body = Readable.from(['a', 'b', 'c']);
  const res = await guard.request(`http://service.internal:${s.port}/echo`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain' },
  });
  t.is(res.status, 200);
  let text = '';
  for await (const chunk of res.body) text += chunk;
  t.regex(text, new RegExp(`^host=service\\.internal:${s.port};\\[a`));
  t.true(text.includes('c]'), text);
  const moved = await guard.request(`http://service.internal:${s.port}/moved`);
  t.is(moved.status, 301);
  moved.body.destroy();
});

test('request bounds the answer: a declared length over the limit is 502 at once, a growing body is cut with the same error, and time is bounded (504)', async (t) => {
  const s = await server(t, (req, res) => {
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
    res.writeHead(200);
    const timer = setInterval(() => res.write(Buffer.alloc(1024)), 2);
    res.on('close', () => clearInterval(timer));
  });
  const guard = new OutboundGuard({ allowHosts: [`127.0.0.1:${s.port}`] });
  t.teardown(() => guard.close());
  const declared = await t.throwsAsync(
    guard.request(`http://127.0.0.1:${s.port}/declared`, { maxResponseBytes: 1000 }),
  );
  t.is((declared as { code?: string }).code, 'upstream_response_too_large');
  const growing = await guard.request(`http://127.0.0.1:${s.port}/growing`, { maxResponseBytes: 10_000 });
  let read = 0;
  const cut = await t.throwsAsync(
    (async () => {
      for await (const chunk of growing.body) read += (chunk as Buffer).length;
    })(),
  );
  t.is((cut as { code?: string }).code, 'upstream_response_too_large');
  t.true(read <= 10_000, String(read));
  const slow = await t.throwsAsync(guard.request(`http://127.0.0.1:${s.port}/slow`, { timeoutMs: 200 }));
  t.is((slow as { code?: string; status?: number }).code, 'upstream_timeout');
  t.is((slow as { status?: number }).status, 504);
});

test('self:<service> allows the addresses the runtime gives for that service, at their current port only', async (t) => {
  const s = await server(t, (_req, res) => res.end('self'));
  let port = s.port;
  const guard = new OutboundGuard({
    allowHosts: ['self:connector'],
    selfHosts: (service) => (service === 'connector' ? [`127.0.0.1:${port}`, `localhost:${port}`] : []),
  });
  t.teardown(() => guard.close());
  const res = await guard.request(`http://127.0.0.1:${s.port}/`);
  t.is(res.status, 200);
  res.body.destroy();
  port = 1; // the service moved: the old port is no longer allowed
  t.is(
    (await t.throwsAsync(guard.request(`http://127.0.0.1:${s.port}/`), { instanceOf: OutboundRefused }))?.rule,
    'loopback',
  );
  t.is(s.connections(), 1);
});

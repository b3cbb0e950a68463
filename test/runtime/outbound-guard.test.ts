import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { forbiddenRange } from '../../runtime/network/address-rules.js';
import { type HostResolver, OutboundGuard, OutboundRefused } from '../../runtime/network/outbound-guard.js';
import { connectionSpy } from './connection-spy.js';

// Nothing here sends traffic outside 127.0.0.0/8: names resolve through an injected resolver, every refusal is
// asserted to come before a connection (a loopback server counts the connections it gets), and the guards'
// connect hook (connectionSpy) records every connection about to open and stops any outside loopback.

test('each internal range is named, in IPv4, IPv6 and the IPv6 forms that carry an IPv4 address', (t) => {
  const cases: Array<[string, string | null]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['172.32.0.1', null],
    ['2606:4700:4700::1111', null],
    ['::ffff:8.8.8.8', null],
  ];
  for (const [address, rule] of cases) t.is(forbiddenRange(address), rule, address);
});

/** A loopback server that counts connections, for proving that a refusal comes before any connection. */
async function countingServer(t: { teardown(fn: () => unknown): void }) {
  let connections = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/moved') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.headers.host}`);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

const resolvesTo =
  (addresses: string[], seen: string[] = []): HostResolver =>
  async (hostname) => {
    seen.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(
  t: { throwsAsync: (p: Promise<unknown>) => Promise<unknown> },
  work: Promise<unknown>,
): Promise<OutboundRefused> {
  const error = await t.throwsAsync(work);
  if (!(error instanceof OutboundRefused)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

test('a name that resolves to an internal address is refused in the lookup, before any connection, naming the rule', async (t) => {
  const server = await countingServer(t);
  const seen: string[] = [];
  const spy = connectionSpy();
  const guard = new OutboundGuard({
    allowHosts: [],
    resolve: resolvesTo(['127.0.0.1'], seen),
    beforeConnect: spy.hook,
  });
  t.teardown(() => guard.close());
  const error = await refusal(t, guard.fetch(`http://intranet.example:${server.port}/`));
  t.is(error.status, 403);
  t.is(error.code, 'address_refused');
  t.is(error.rule, 'loopback');
  t.regex(error.message, /intranet\.example resolves to 127\.0\.0\.1, a loopback address/);
  t.deepEqual(seen, ['intranet.example']);
  t.is(server.connections(), 0, 'no connection was made');
  t.deepEqual(spy.attempts, [], 'no connection was attempted');
});

test('every address of a name is checked: one internal record among public ones refuses it', async (t) => {
  const spy = connectionSpy();
  const guard = new OutboundGuard({
    allowHosts: [],
    resolve: resolvesTo(['93.184.216.34', '10.0.0.7']),
    beforeConnect: spy.hook,
  });
  t.teardown(() => guard.close());
  t.is((await refusal(t, guard.check('https://mixed.example/'))).rule, 'private');
  t.is((await refusal(t, guard.fetch('https://mixed.example/'))).rule, 'private', 'and when fetched, in the lookup');
  const metadata = new OutboundGuard({
    allowHosts: [],
    resolve: resolvesTo(['::ffff:169.254.169.254']),
    beforeConnect: spy.hook,
  });
  t.teardown(() => metadata.close());
  t.is((await refusal(t, metadata.check('http://meta.example/'))).rule, 'cloud metadata');
  t.is((await refusal(t, metadata.fetch('http://meta.example/'))).rule, 'cloud metadata');
  t.deepEqual(spy.attempts, [], 'no connection was attempted');
});

test('IP literals in any spelling are refused without a lookup: decimal, hex, octal, short, IPv6 and IPv4-mapped', async (t) => {
  const server = await countingServer(t);
  const seen: string[] = [];
  const spy = connectionSpy();
  const guard = new OutboundGuard({
    allowHosts: [],
    resolve: resolvesTo(['93.184.216.34'], seen),
    beforeConnect: spy.hook,
  });
  t.teardown(() => guard.close());
  const p = server.port;
  for (const url of [
    `http://2130706433:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://0x7f.0.0.1:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://127.1:${p}/`,
    `http://[::1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${p}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://0.0.0.0/',
  ]) {
    const error = await refusal(t, guard.fetch(url));
    t.truthy(error.rule, url);
  }
  t.deepEqual(seen, [], 'no name was looked up');
  t.is(server.connections(), 0, 'no connection was made');
  t.deepEqual(spy.attempts, [], 'no connection was attempted');
});

test('only http and https, without user info, are fetched', async (t) => {
  const guard = new OutboundGuard({ allowHosts: [] });
  t.teardown(() => guard.close());
  for (const url of ['file:///etc/passwd', 'ftp://example.org/x', 'data:text/plain,hi', 'gopher://example.org/'])
    t.is((await refusal(t, guard.check(url))).rule, 'scheme', url);
  t.is((await refusal(t, guard.check('http://user:secret@example.org/'))).rule, 'user info');
  t.is((await refusal(t, guard.check('not a url'))).rule, 'not a URL');
});

test("a host on the operator's allowlist is fetched, connecting to the address checked; redirects are answered, never followed", async (t) => {
  const server = await countingServer(t);
  const guard = new OutboundGuard({ allowHosts: [`127.0.0.1:${server.port}`] });
  t.teardown(() => guard.close());
  const res = await guard.fetch(`http://127.0.0.1:${server.port}/hello`);
  t.is(res.status, 200);
  t.is(await res.text(), `hello 127.0.0.1:${server.port}`);
  const moved = await guard.fetch(`http://127.0.0.1:${server.port}/moved`);
  t.is(moved.status, 302, 'the redirect to the metadata address is returned, not followed');
  await moved.body?.cancel();
  const otherPort = new OutboundGuard({ allowHosts: ['127.0.0.1:1'] });
  t.teardown(() => otherPort.close());
  t.is(
    (await refusal(t, otherPort.fetch(`http://127.0.0.1:${server.port}/`))).rule,
    'loopback',
    'the allowlist names host and port',
  );
});

test('a name is connected to at the address the guard resolved, with the name kept as the Host; the allowlist skips only the range check', async (t) => {
  const server = await countingServer(t);
  const spy = connectionSpy();
  const guard = new OutboundGuard({ allowHosts: [], resolve: resolvesTo(['127.0.0.1']), beforeConnect: spy.hook });
  const allowed = new OutboundGuard({
    allowHosts: ['service.internal'],
    resolve: resolvesTo(['127.0.0.1']),
    beforeConnect: spy.hook,
  });
  t.teardown(() => Promise.all([guard.close(), allowed.close()]));
  await refusal(t, guard.fetch(`http://service.internal:${server.port}/`));
  t.is(server.connections(), 0);
  t.deepEqual(spy.attempts, []);
  const res = await allowed.fetch(`http://service.internal:${server.port}/x`);
  t.is(await res.text(), `hello service.internal:${server.port}`);
  t.is(server.connections(), 1);
  t.deepEqual(
    spy.attempts,
    ['service.internal=127.0.0.1'],
    'the one connection went to the address the guard resolved',
  );
});

test('the connect hook is the last word: it sees literals and resolved names alike, and what it stops never connects', async (t) => {
  const server = await countingServer(t);
  const spy = connectionSpy();
  const guard = new OutboundGuard({
    allowHosts: [`127.0.0.1:${server.port}`, 'public.example'],
    resolve: resolvesTo(['93.184.216.34']),
    beforeConnect: spy.hook,
  });
  t.teardown(() => guard.close());
  t.is((await guard.fetch(`http://127.0.0.1:${server.port}/`)).status, 200);
  // Allowed by the operator and public: the guard would connect, and the test's hook stops it first.
  const stopped = await t.throwsAsync(guard.fetch('http://public.example/'));
  t.regex(
    String((stopped as { cause?: Error }).cause?.message ?? stopped?.message),
    /the test stopped a connection to 93\.184\.216\.34/,
  );
  t.deepEqual(spy.attempts, [`127.0.0.1=127.0.0.1`, 'public.example=93.184.216.34']);
  t.is(server.connections(), 1);
});

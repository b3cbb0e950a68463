import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import { OutboundGuard } from 'vela/testing';
import { connectionSpy } from '../../../test/runtime/connection-spy.js';
import { IntegrationProxy } from '../proxy/integration-proxy.js';
import type { IntegrationStore, ProxyTarget } from '../store/integration-store.js';

// The address rules as the proxy meets them: instance endpoints whose names resolve (through an injected
// resolver, never DNS) to each internal range, and IP literals in other spellings. Each is refused with 403
// naming the rule before any connection; the loopback server counts the connections it gets, and the guard's
// connect hook records every connection about to open and stops any outside 127.0.0.0/8, so no packet could
// leave the machine even if the rules regressed.

type Options = ConstructorParameters<typeof OutboundGuard>[0];
type Resolver = Options['resolve'];

const { hook, attempts } = connectionSpy();

async function proxyWith(
  t: { teardown(fn: () => unknown): void },
  endpoint: string,
  resolve: Resolver,
  allowHosts: string[] = [],
) {
  const guard = new OutboundGuard({ allowHosts, resolve, beforeConnect: hook });
  const target: ProxyTarget = {
    integration: {
      id: 'x',
      title: 'x',
      description: '',
      vendor: 'HTTP',
      endpoint,
      enabled: true,
      allowedPaths: [],
      allowedMethods: ['GET', 'POST'],
      headers: [],
      createdAt: '',
      updatedAt: '',
    },
    headers: {},
  };
  const store = { target: () => target } as unknown as IntegrationStore;
  const proxy = new IntegrationProxy(store, () => guard, {
    timeoutMs: 2000,
    maxRequestBytes: 1024,
    maxResponseBytes: 1024 * 1024,
  });
  const app = express();
  app.all('/api/v2/integration/{*rest}', (req, res, next) => {
    proxy.forward(req, res).catch(next);
  });
  app.use(
    (
      error: { status?: number; code?: string; message: string },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res.status(error.status ?? 500).json({ error: error.code, message: error.message });
    },
  );
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => Promise.all([guard.close(), new Promise<void>((resolve) => server.close(() => resolve()))]));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function upstream(t: { teardown(fn: () => unknown): void }) {
  let connections = 0;
  const server = http.createServer((req, res) => res.end(`reached ${req.headers.host}`));
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

const to =
  (address: string): Resolver =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];

test('an instance whose host resolves to an internal address is refused per request, naming the range, before any connection', async (t) => {
  t.timeout(60_000);
  const up = await upstream(t);
  const families: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.9', 'shared address space (carrier-grade NAT)'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.0.5', 'link-local'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['fe80::1', 'link-local'],
    ['fc00::7', 'unique-local'],
    ['ff05::2', 'multicast'],
    ['239.1.1.1', 'multicast'],
  ];
  for (const [address, rule] of families) {
    const base = await proxyWith(t, `http://intranet.example:${up.port}/api`, to(address));
    const res = await fetch(`${base}/api/v2/integration/x/status`);
    t.is(res.status, 403, address);
    const body = await res.json();
    t.is(body.error, 'address_refused', address);
    t.true(body.message.includes(`(${rule})`), `${address}: ${body.message}`);
  }
  for (const endpoint of [
    `http://2130706433:${up.port}/`,
    `http://0x7f.0.0.1:${up.port}/`,
    `http://[::ffff:7f00:1]:${up.port}/`,
    `http://127.1:${up.port}/`,
  ]) {
    const base = await proxyWith(t, endpoint, to('93.184.216.34'));
    const res = await fetch(`${base}/api/v2/integration/x/status`);
    t.is(res.status, 403, endpoint);
    t.is((await res.json()).error, 'address_refused');
  }
  t.is(up.connections(), 0, 'no refused request reached the upstream');
  t.deepEqual(attempts, [], 'no connection was attempted');

  // The operator allows the name: the request connects to the address the guard resolved, the name as Host.
  const allowed = await proxyWith(t, `http://intranet.example:${up.port}/api`, to('127.0.0.1'), ['intranet.example']);
  const res = await fetch(`${allowed}/api/v2/integration/x/status`);
  t.is(await res.text(), `reached intranet.example:${up.port}`);
  t.is(up.connections(), 1);
  t.deepEqual(attempts, ['intranet.example=127.0.0.1']);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { UpstreamAgents } from '../proxy/upstream-agents.js';
import { createApp, createMapping, eventually, startGateway, startServer } from './fixtures.js';

test('a pool dropped while a request is in flight closes that socket once the answer is done, and keeps none idle', async (t) => {
  let closedConnections = 0;
  let answer = null as (() => void) | null;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (_req, res) => {
    answer = () => res.end('late');
  });
  server.on('connection', (socket) =>
    socket.on('close', () => {
      closedConnections += 1;
    }),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.teardown(() => server.close());
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const agents = new UpstreamAgents(4);
  const pool = agents.poolFor(url);
  t.is(agents.poolFor(url), pool, 'one pool per origin');

  const done = pool.request({ path: '/', method: 'GET' }).then((res) => res.body.text());
  while (!answer) await new Promise((r) => setTimeout(r, 5));
  agents.retain(new Set()); // no mapping uses this origin any more
  answer!();
  t.is(await done, 'late', 'the request in flight finished');
  const deadline = Date.now() + 2000;
  while (closedConnections === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  t.is(closedConnections, 1, 'its connection was closed once free, long before the upstream keep-alive timeout');
  t.not(agents.poolFor(url), pool, 'a later request gets a new pool');
  agents.destroyAll();
});

test('a request queued behind a full pool gets 504 at its mapping timeout, and is never sent once a connection frees up', async (t) => {
  t.timeout(30_000);
  const seen: string[] = [];
  let release = null as (() => void) | null;
  const upstream = await startServer((req, res) => {
    seen.push(req.url!);
    if (req.url!.startsWith('/hold')) release = () => res.end('held');
    else res.end('quick');
  });
  t.teardown(() => upstream.close());
  // One connection per upstream origin: a second request to the same origin waits in undici's queue.
  const vela = await startGateway({ proxy: { maxSocketsPerUpstream: 1 } });
  t.teardown(() => vela.stop());
  await createMapping(vela, { context: '/proxy/patient/a', url: `${upstream.url}/hold`, timeoutMs: 20_000 });
  await createMapping(vela, { context: '/proxy/hasty/a', url: `${upstream.url}/quick`, timeoutMs: 300 });
  const headers = { authorization: `Bearer ${(await createApp(vela)).accessToken!}` };

  const held = vela.fetch('gateway', '/patient/a', { headers });
  await eventually(() => release !== null, 'the first request holding the only connection');
  const queued = await vela.fetch('gateway', '/hasty/a/late', { headers, signal: AbortSignal.timeout(10_000) });
  t.is(queued.status, 504, 'answered at the mapping timeout while still queued');
  t.like(await queued.json(), { error: 'gateway_timeout' });
  const gone = new AbortController();
  const left = vela.fetch('gateway', '/patient/a/left', { headers, signal: gone.signal }).catch(() => 'aborted');
  await new Promise((r) => setTimeout(r, 100));
  gone.abort();
  t.is(await left, 'aborted');

  release!();
  t.is(await (await held).text(), 'held');
  const after = await vela.fetch('gateway', '/hasty/a/next', { headers });
  t.is(await after.text(), 'quick', 'the pool serves the next request');
  t.deepEqual(seen, ['/hold', '/quick/next'], 'neither the timed-out nor the abandoned request reached the upstream');
});

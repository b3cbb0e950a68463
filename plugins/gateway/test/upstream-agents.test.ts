import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { UpstreamAgents } from '../proxy/upstream-agents.js';

test('an agent dropped while a request is in flight closes that socket once the answer is done, and keeps none idle', async (t) => {
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
  const agent = agents.agentFor(url);
  t.is(agents.agentFor(url), agent, 'one agent per origin');

  const done = new Promise<string>((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: '/', agent }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
  while (!answer) await new Promise((r) => setTimeout(r, 5));
  agents.retain(new Set()); // no mapping uses this origin any more
  answer!();
  t.is(await done, 'late', 'the request in flight finished');
  const deadline = Date.now() + 2000;
  while (closedConnections === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  t.is(closedConnections, 1, 'its socket was closed once free, long before the upstream keep-alive timeout');
  t.not(agents.agentFor(url), agent, 'a later request gets a new agent');
  agents.destroyAll();
});

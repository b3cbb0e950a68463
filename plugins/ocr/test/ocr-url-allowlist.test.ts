import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { OutboundGuard, startTestRuntime, type TestRuntime } from 'vela/testing';
import { connectionSpy } from '../../../test/runtime/connection-spy.js';

// Allow-lists are per feature: what the operator names in runtime.network.allowHosts every feature may reach;
// the local connector (self:connector) is the integration proxy's by default, and OCR by URL reaches none of this
// runtime's own services unless its own list names them. Names resolve through an injected resolver (never DNS),
// and the connection hook stops anything outside 127.0.0.0/8.

async function loopbackServer(t: { teardown(fn: () => unknown): void }): Promise<{ port: number; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  return { port: (server.address() as AddressInfo).port, requests };
}

async function status(promise: Promise<Response | { status: number }>): Promise<number | string> {
  try {
    return (await promise).status;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

test("a feature's guard adds its own hosts to the operator's; self: entries reach only the feature that names them", async (t) => {
  const connector = await loopbackServer(t);
  const operator = await loopbackServer(t);
  const spy = connectionSpy();
  const runtimeGuard = new OutboundGuard({
    allowHosts: [`ops.example:${operator.port}`],
    resolve: async (hostname) => (hostname === 'ops.example' ? [{ address: '127.0.0.1', family: 4 }] : []),
    selfHosts: (service) => (service === 'connector' ? [`127.0.0.1:${connector.port}`] : []),
    beforeConnect: spy.hook,
  });
  t.teardown(() => runtimeGuard.close());
  const integration = runtimeGuard.forFeature(['self:connector']);
  const ocr = runtimeGuard.forFeature([]);
  const own = `http://127.0.0.1:${connector.port}/v3/api-docs`;

  t.is(await status(integration.fetch(own)), 200, 'the feature that names self:connector reaches it');
  t.is(await status(ocr.fetch(own)), 'address_refused', 'a feature without it does not');
  t.is(await status(runtimeGuard.fetch(own)), 'address_refused', 'nor does the runtime guard itself');
  t.deepEqual(connector.requests, ['/v3/api-docs'], 'only one request reached the connector');
  // What the operator names applies to every feature.
  for (const guard of [runtimeGuard, integration, ocr])
    t.is(await status(guard.fetch(`http://ops.example:${operator.port}/x`)), 200);
  t.is(operator.requests.length, 3);
  // A feature's guard shares the runtime's connections: closing it closes nothing.
  await integration.close();
  t.is(await status(runtimeGuard.fetch(`http://ops.example:${operator.port}/again`)), 200);
  t.true(spy.attempts.every((attempt) => attempt.endsWith('=127.0.0.1')));
});

let vela: TestRuntime;
test.after.always(() => vela?.stop());

test("by default an anonymous OCR by URL cannot read the connector's API document; the integration proxy still reaches the connector", async (t) => {
  t.timeout(60_000);
  vela = await startTestRuntime({ plugins: ['search', 'ocr', 'integration', 'connector'] });
  const apiDocs = `${vela.url('connector')}/v3/api-docs`;
  for (const url of [
    apiDocs,
    apiDocs.replace('127.0.0.1', 'localhost'),
    `${vela.url('connector')}/health`,
    `${vela.url('search')}/v3/api-docs`,
  ]) {
    const answer = await vela.fetch('search', '/api/ocr/url', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    t.is(answer.status, 403, url);
    const body = (await answer.json()) as { error: string; message: string };
    t.is(body.error, 'address_refused', url);
    t.regex(body.message, /\(loopback\)/, url);
  }
  // The integration proxy's own list keeps the local connector (self:connector), as CONNECTOR instances need.
  const admin = { authorization: vela.adminAuth, 'content-type': 'application/json' };
  const saved = await vela.fetch('search', '/api/integration', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ title: 'Local connector', vendor: 'CONNECTOR', allowedPaths: ['/connector'] }),
  });
  t.is(saved.status, 201, await saved.clone().text());
  const { id } = (await saved.json()) as { id: string };
  const proxied = await vela.fetch('search', `/api/v2/integration/${id}/connector/status`);
  t.is(proxied.status, 200, await proxied.clone().text());
});

test("OCR by URL reaches one of the runtime's services when its own list names it", async (t) => {
  t.timeout(60_000);
  const own = await startTestRuntime({
    plugins: ['search', 'ocr', 'connector'],
    config: { plugins: { ocr: { allowHosts: ['self:connector'] } } },
  });
  t.teardown(() => own.stop());
  const answer = await own.fetch('search', '/api/ocr/url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${own.url('connector')}/v3/api-docs` }),
  });
  const body = (await answer.json()) as { error?: string };
  t.not(body.error, 'address_refused', JSON.stringify(body));
  t.not(answer.status, 403);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import test from 'ava';
import { CHILD_ADMIN_AUTH, packedProblems, startPacked } from 'vela/testing';

// The integration plugin as a user deploys it: packed with `vela pack` and loaded from the archive in another
// process, beside the search plugin's folder (test/runtime/packed-plugins.test.ts packs every bundled plugin).

test('the packed integration plugin loads from its archive, keeps an instance and forwards to it with its header', async (t) => {
  t.timeout(120_000);
  const keys: Array<string | undefined> = [];
  const upstream = http.createServer((req, res) => {
    keys.push(req.headers.key as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  t.teardown(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
  // The upstream is on loopback: the operator allows it.
  const packed = await startPacked(t, 'integration', ['search'], {
    runtime: { network: { allowHosts: [`127.0.0.1:${port}`] } },
  });
  const { vela } = packed;
  t.is(path.basename(packed.archive), 'integration-1.0.0.tgz');
  t.deepEqual(packedProblems(packed, ['integration', 'search']), []);

  const base = vela.urls.search!;
  const created = await fetch(`${base}/api/integration`, {
    method: 'POST',
    headers: { authorization: CHILD_ADMIN_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'packed',
      title: 'Packed',
      vendor: 'HTTP',
      endpoint: `http://127.0.0.1:${port}/api`,
      headers: [{ name: 'Key', value: 'packed-key' }],
    }),
  });
  t.is(created.status, 201, await created.clone().text());
  const proxied = await fetch(`${base}/api/v2/integration/packed/status`);
  t.is(proxied.status, 200, await proxied.clone().text());
  t.deepEqual(await proxied.json(), { url: '/api/status' });
  t.deepEqual(keys, ['packed-key']);
});

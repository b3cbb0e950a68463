import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { childEnv, packageRoot, runVela, startChildRuntime } from 'vela/testing';

// The integration plugin as a user deploys it: packed with `vela pack` and loaded from the archive in another
// process, beside the search plugin's folder (test/runtime/packed-plugins.test.ts packs every bundled plugin).

const admin = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

test('the packed integration plugin loads from its archive, keeps an instance and forwards to it with its header', async (t) => {
  t.timeout(120_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'vela-integration-packed-'));
  const keys: Array<string | undefined> = [];
  const upstream = http.createServer((req, res) => {
    keys.push(req.headers.key as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  t.teardown(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    rmSync(home, { recursive: true, force: true });
  });
  const archives = path.join(home, 'plugins');
  const packed = await runVela(['pack', 'integration', '--out', archives]);
  t.is(packed.code, 0, packed.stderr);
  t.deepEqual(readdirSync(archives), ['integration-1.0.0.tgz']);

  const loaderPath = `${path.join(packageRoot, 'plugins', 'search')},${path.join(archives, 'integration-1.0.0.tgz')}`;
  // The upstream is on loopback: the operator allows it.
  const config = path.join(home, 'config.json');
  writeFileSync(config, JSON.stringify({ runtime: { network: { allowHosts: [`127.0.0.1:${port}`] } } }));
  const vela = await startChildRuntime(
    ['--config', config, '--loader-path', loaderPath],
    childEnv({ VELA_DATA_DIR: path.join(home, 'data') }),
    home,
  );
  t.teardown(() => vela.stop());
  t.true(vela.output().includes('"origin":"archive"'), 'integration loaded from its archive');
  t.deepEqual(vela.plugins.sort(), ['integration', 'search']);

  const base = vela.urls.search!;
  const created = await fetch(`${base}/api/integration`, {
    method: 'POST',
    headers: { authorization: admin, 'content-type': 'application/json' },
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

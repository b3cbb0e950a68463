import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { SecretBox, secretHint } from 'vela/plugin';
import { onBothDatabases, postgresIndexes, startTestRuntime, testFolder } from 'vela/testing';
import { listTables } from '../../../runtime/storage/database.js';
import { earlierSearchDatabase } from '../../search/test/earlier-search-database.js';

// A database and data folder as an earlier search plugin left them, with the integration instances in its
// search_integrations table and their header values sealed with its key (<data>/search/secret.key): the runtime
// with the search and integration plugins starts on them, and the instance answers and forwards with its header.

const SECRET = 'connector-key-sealed-by-search-0042';

interface Upstream {
  port: number;
  keys: Array<string | undefined>;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const keys: Upstream['keys'] = [];
  const server = http.createServer((req, res) => {
    keys.push(req.headers.key as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    keys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The runtime started on the earlier layout, on SQLite or on the PostgreSQL database at `databaseUrl`. */
async function upgradeInPlace(t: ExecutionContext, databaseUrl?: string): Promise<void> {
  t.timeout(90_000);
  const upstream = await startUpstream();
  t.teardown(() => upstream.close());
  const dataDir = testFolder(t, 'integration-upgrade');

  // The earlier layout: the search plugin's tables up to its migration 006, one instance with a sealed header.
  const db = await earlierSearchDatabase(dataDir, databaseUrl, {
    name: '006_integrations.ts',
    fixture: new URL('./fixtures/search-006-integrations.ts', import.meta.url),
  });
  const searchKey = path.join(dataDir, 'search', 'secret.key');
  const box = await SecretBox.open(path.dirname(searchKey), {});
  await db('search_integrations').insert({
    id: 'legacy',
    title: 'Connector from before',
    vendor: 'HTTP',
    endpoint: `http://127.0.0.1:${upstream.port}/api/v2`,
    allowed_paths: JSON.stringify(['/connector']),
    headers: JSON.stringify([
      { name: 'Key', value: box.encrypt(SECRET, 'search_integrations:legacy:key'), hint: secretHint(SECRET) },
    ]),
  });
  await db.destroy();

  const vela = await startTestRuntime({
    plugins: ['search', 'integration'],
    dataDir,
    databaseUrl,
    config: { runtime: { network: { allowHosts: [`127.0.0.1:${upstream.port}`] } } },
  });
  t.teardown(() => vela.stop());
  const admin = { authorization: vela.adminAuth };

  const got = await vela.fetch('search', '/api/integration/legacy', { headers: admin });
  t.is(got.status, 200);
  t.like(await got.json(), {
    id: 'legacy',
    title: 'Connector from before',
    headers: [{ name: 'Key', hint: '…0042' }],
    allowedMethods: ['GET', 'HEAD'],
  });
  const proxied = await vela.fetch('search', '/api/v2/integration/legacy/connector/status?full=1');
  t.is(proxied.status, 200, await proxied.clone().text());
  t.deepEqual(await proxied.json(), { url: '/api/v2/connector/status?full=1' });
  t.deepEqual(upstream.keys, [SECRET], 'the header sealed with the search plugin key reached the upstream');

  // The table is the integration plugin's now, and its key a copy of the search plugin's, which stays.
  const tables = await listTables(vela.runtime.resolve('db') as never);
  t.true(tables.includes('integration_instances'));
  t.false(tables.includes('search_integrations'));
  t.is(readFileSync(path.join(dataDir, 'integration', 'secret.key'), 'utf8'), readFileSync(searchKey, 'utf8'));
  t.true(existsSync(searchKey));

  // Changed and read again through the plugin: the kept header still opens.
  const renamed = await vela.fetch('search', '/api/integration/legacy', {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Connector', headers: [{ name: 'Key' }] }),
  });
  t.is(renamed.status, 200, await renamed.clone().text());
  t.is((await vela.fetch('search', '/api/v2/integration/legacy/connector/status')).status, 200);
  t.deepEqual(upstream.keys, [SECRET, SECRET]);
  if (!databaseUrl) return;
  // The primary key's index follows the table's name.
  t.deepEqual(await postgresIndexes(databaseUrl, 'integration_instances'), ['integration_instances_pkey']);
}

onBothDatabases(
  test,
  'the search plugin instances, sealed with its key, answer and forward through the integration plugin',
  upgradeInPlace,
);

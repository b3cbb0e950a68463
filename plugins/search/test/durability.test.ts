import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { type ChildRuntime, childEnv, startChildRuntime, startTestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, SITE_FIELDS, search } from './fixtures.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'vela-durable-'));
const docs = makeDocs(400);
const auth = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

async function call(child: ChildRuntime, method: string, p: string, body?: unknown): Promise<any> {
  const r = await fetch(`${child.urls.search}${p}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r.json();
}
const items = (list: typeof docs) => ({
  turingDocuments: list.map((attributes) => ({ locale: 'en_US', siteNames: ['Sample'], attributes })),
});

test('a killed process loses nothing it acknowledged: the restart loads the snapshot and replays the change log', async (t) => {
  const dataDir = tmp();
  const config = path.join(dataDir, 'vela.json');
  writeFileSync(config, JSON.stringify({ plugins: { search: { indexer: { snapshotDelayMs: 100 } } } }));
  const args = ['--plugins', 'search', '--data-dir', dataDir, '--config', config];

  const first = await startChildRuntime(args, childEnv());
  await call(first, 'POST', '/api/sn', { name: 'Sample', fields: SITE_FIELDS });
  await call(first, 'POST', '/api/sn/import?wait=true', items(docs.slice(0, 250)));
  // Let the snapshot of the first batch be written, then acknowledge a second batch and crash.
  for (let i = 0; i < 50 && !first.output().includes('search index snapshot written'); i++)
    await new Promise((r) => setTimeout(r, 100));
  t.true(first.output().includes('search index snapshot written'));
  const second = await call(first, 'POST', '/api/sn/import', items(docs.slice(250)));
  t.is(second.accepted, 150);
  const killed = await first.stop('SIGKILL');
  t.is(killed.signal, 'SIGKILL');
  t.true(readdirSync(path.join(dataDir, 'search', 'snapshots')).includes('manifest.json'));

  const restarted = await startChildRuntime(args, childEnv());
  t.teardown(() => restarted.stop());
  t.regex(restarted.output(), /"msg":"search indexes loaded"/);
  t.regex(restarted.output(), /"snapshot":\d+/, 'the engines came from the snapshot');
  const r = await call(restarted, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US&rows=1000&fl=id');
  t.is(r.queryContext.count, 400);
  t.deepEqual(r.results.document.map((d: any) => d.fields.id).sort(), docs.map((d) => d.id).sort());
});

test('a restart without snapshots rebuilds every index from the stored documents', async (t) => {
  const dataDir = tmp();
  const first = await startTestRuntime({
    plugins: ['search'],
    dataDir,
    config: { plugins: { search: { indexer: { snapshotDelayMs: 0 } } } },
  });
  await createSite(first);
  await importDocs(first, docs.slice(0, 120));
  await first.runtime.stop();
  const second = await startTestRuntime({ plugins: ['search'], dataDir });
  t.teardown(() => second.stop());
  t.true(second.logs.some((l) => l.msg === 'search index rebuilt' && l.documents === 120));
  t.is((await search(second, 'q=*&_setlocale=en_US')).body.queryContext.count, 120);
});

test('a corrupt snapshot is set aside and the index rebuilt', async (t) => {
  const dataDir = tmp();
  const first = await startTestRuntime({ plugins: ['search'], dataDir });
  await createSite(first);
  await importDocs(first, docs.slice(0, 50));
  await first.runtime.stop();
  const snapshots = path.join(dataDir, 'search', 'snapshots');
  for (const file of readdirSync(snapshots).filter((f) => f.endsWith('.snap')))
    writeFileSync(path.join(snapshots, file), 'not a snapshot');
  const second = await startTestRuntime({ plugins: ['search'], dataDir });
  t.teardown(() => second.stop());
  t.true(second.logs.some((l) => l.msg.startsWith('index snapshot unreadable')));
  t.is((await search(second, 'q=*&_setlocale=en_US')).body.queryContext.count, 50);
  const m = await json(second, 'GET', '/api/sn/Sample/monitoring');
  t.is(m.body.documents, 50);
});

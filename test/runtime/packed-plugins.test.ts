import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { childEnv, eventually, runVela, startChildRuntime } from 'vela/testing';

// The bundled plugins as a user deploys them: `vela pack` of each into one folder, then `vela start` with
// only that folder on the loader path, run from a folder outside the repository with its data there too.

const admin = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    ...init,
    headers: { authorization: admin, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
  return { status: res.status, body: await res.json() };
}

test('every bundled plugin packs alone, and a runtime whose loader path is only their archives serves the three services, the sample, searches and connector runs', async (t) => {
  // Packing and unpacking the search and connector archives (each carries OCR: tesseract.js and its language
  // data, about 75 MB) takes most of a minute on a busy two-core machine.
  t.timeout(240_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'vela-packed-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const archives = path.join(home, 'plugins');
  for (const plugin of ['gateway', 'search', 'connector']) {
    const packed = await runVela(['pack', plugin, '--out', archives]);
    t.is(packed.code, 0, packed.stderr);
  }
  t.deepEqual(readdirSync(archives).sort(), ['connector-1.0.0.tgz', 'gateway-1.0.0.tgz', 'search-1.0.0.tgz']);

  const vela = await startChildRuntime(['--loader-path', archives], childEnv({ VELA_DATA_DIR: path.join(home, 'data') }), home);
  t.teardown(() => vela.stop());
  t.deepEqual(vela.plugins.sort(), ['connector', 'gateway', 'search']);
  t.true(
    vela
      .output()
      .split('\n')
      .some((line) => line.includes('"bootTree"') && (line.match(/"origin":"archive"/g) ?? []).length === 3),
    'all three load from their archives',
  );
  for (const service of ['gateway', 'search', 'connector']) {
    const health = await json(`${vela.urls[service]}/health`);
    t.is(health.status, 200, `${service}: ${JSON.stringify(health.body)}`);
  }

  // The connector seeds the sample from its archive into the search plugin's Sample site.
  const connector = `${vela.urls.connector}/api/v2/connector`;
  await eventually(
    async () => (await json(`${connector}/monitoring/indexing/stats/sample`)).body?.[0]?.status === 'COMPLETED',
    'the sample run to end',
    60_000,
  );
  const sample = await json(`${vela.urls.search}/api/sn/Sample/search?q=editor&_setlocale=en_US&rows=3`);
  t.is(sample.status, 200);
  t.true(sample.body.queryContext.count > 0, JSON.stringify(sample.body.queryContext));

  // A source of the user's own, through the connector's pipeline into a new site (GraphQL answers from the bundled graphql).
  const site = await json(`${vela.urls.search}/api/sn`, {
    method: 'POST',
    body: JSON.stringify({ name: 'Packed', locales: ['en_US'], fields: [{ name: 'title', type: 'TEXT' }] }),
  });
  t.is(site.status, 201, JSON.stringify(site.body));
  const file = path.join(home, 'notes.jsonl');
  writeFileSync(file, ['alpha', 'beta', 'gamma'].map((word, i) => JSON.stringify({ id: `n${i}`, title: `${word} note`, body: `the ${word} note` })).join('\n'));
  const source = await json(`${connector}/source`, {
    method: 'POST',
    body: JSON.stringify({
      name: 'notes',
      kind: 'jsonl',
      sites: ['Packed'],
      locale: 'en_US',
      settings: { path: file, idField: 'id', fields: { title: 'title', text: 'body' } },
    }),
  });
  t.is(source.status, 201, JSON.stringify(source.body));
  const sent = await json(`${connector}/index/notes/all`);
  t.is(sent.body.status, 'sent');
  await eventually(async () => (await json(`${connector}/monitoring/indexing/stats/notes`)).body?.[0]?.status === 'COMPLETED', 'the notes run to end');
  const found = await json(`${vela.urls.search}/graphql`, {
    method: 'POST',
    body: JSON.stringify({ query: '{ siteSearch(siteName: PACKED, searchParams: {q: "beta"}, locale: "en_US") { queryContext { count } } }' }),
  });
  t.is(found.body.data?.siteSearch?.queryContext?.count, 1, JSON.stringify(found.body));

  // Both archives carry the extraction library (@vela/extraction, a workspace package) with tesseract.js and its
  // language data: OCR answers from the search archive, and the connector's filesystem kind reads a scan.
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(900, 120);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 900, 120);
  g.fillStyle = '#000';
  g.font = '40px sans-serif';
  g.fillText('Packed archives read scans', 30, 75);
  const png = await canvas.encode('png');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'scan.png');
  const ocr = await fetch(`${vela.urls.search}/api/ocr/file`, { method: 'POST', body: form });
  const recognized = await ocr.json();
  t.is(ocr.status, 200, JSON.stringify(recognized));
  t.regex(recognized.text, /Packed archives read scans/);
  const scans = path.join(home, 'scans');
  mkdirSync(scans);
  writeFileSync(path.join(scans, 'scan.png'), png);
  const scanSource = await json(`${connector}/source`, {
    method: 'POST',
    body: JSON.stringify({ name: 'scans', kind: 'filesystem', sites: ['Packed'], locale: 'en_US', settings: { root: scans } }),
  });
  t.is(scanSource.status, 201, JSON.stringify(scanSource.body));
  t.is((await json(`${connector}/index/scans/all`)).body.status, 'sent');
  await eventually(async () => (await json(`${connector}/monitoring/indexing/stats/scans`)).body?.[0]?.status === 'COMPLETED', 'the scans run to end');
  const archived = await json(`${vela.urls.search}/api/sn/Packed/search?q=archives&_setlocale=en_US`);
  t.is(archived.body.queryContext?.count, 1, JSON.stringify(archived.body.queryContext));
});

import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { childEnv, eventually, runVela, startChildRuntime } from 'vela/testing';

// The bundled plugins as a user deploys them: `vela pack` of each into one folder, then `vela start` with
// only that folder on the loader path, run from a folder outside the repository with its data there too.

const admin = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    ...init,
    headers: {
      authorization: admin,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  return { status: res.status, body: await res.json() };
}

test('every bundled plugin packs alone, and a runtime whose loader path is only their archives serves the three services, the sample, searches and connector runs', async (t) => {
  // The ocr and connector archives each carry the extraction library (tesseract.js, its language data, pdfjs-dist
  // and the native canvas: about 40 MB packed); packing and unpacking them waits on the disk and, on a busy machine,
  // the CPU.
  t.timeout(240_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'vela-packed-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const archives = path.join(home, 'plugins');
  const bundled = [
    'cms',
    'connector',
    'gateway',
    'genai',
    'graphql',
    'integration',
    'ocr',
    'search',
    'search-postgres',
  ];
  const packs = await Promise.all(bundled.map((plugin) => runVela(['pack', plugin, '--out', archives])));
  for (const packed of packs) t.is(packed.code, 0, packed.stderr);
  t.deepEqual(
    readdirSync(archives).sort(),
    bundled.map((plugin) => `${plugin}-1.0.0.tgz`),
  );

  const vela = await startChildRuntime(
    ['--loader-path', archives],
    childEnv({ VELA_DATA_DIR: path.join(home, 'data') }),
    home,
  );
  t.teardown(() => vela.stop());
  t.deepEqual(vela.plugins.sort(), bundled);
  t.true(
    vela
      .output()
      .split('\n')
      .some(
        (line) => line.includes('"bootTree"') && (line.match(/"origin":"archive"/g) ?? []).length === bundled.length,
      ),
    'every one loads from its archive',
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

  // A source of the user's own, through the connector's pipeline into a new site (GraphQL answers from the graphql
  // plugin's archive).
  const site = await json(`${vela.urls.search}/api/sn`, {
    method: 'POST',
    body: JSON.stringify({ name: 'Packed', locales: ['en_US'], fields: [{ name: 'title', type: 'TEXT' }] }),
  });
  t.is(site.status, 201, JSON.stringify(site.body));
  const file = path.join(home, 'notes.jsonl');
  writeFileSync(
    file,
    ['alpha', 'beta', 'gamma']
      .map((word, i) => JSON.stringify({ id: `n${i}`, title: `${word} note`, body: `the ${word} note` }))
      .join('\n'),
  );
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
  await eventually(
    async () => (await json(`${connector}/monitoring/indexing/stats/notes`)).body?.[0]?.status === 'COMPLETED',
    'the notes run to end',
    60_000,
  );
  const found = await json(`${vela.urls.search}/graphql`, {
    method: 'POST',
    body: JSON.stringify({
      query: '{ siteSearch(siteName: PACKED, searchParams: {q: "beta"}, locale: "en_US") { queryContext { count } } }',
    }),
  });
  t.is(found.body.data?.siteSearch?.queryContext?.count, 1, JSON.stringify(found.body));
  // GraphiQL's page takes its prebuilt bundles from the archive's graphiql, react and react-dom (files only).
  for (const asset of [
    'graphiql.min.js',
    'graphiql.min.css',
    'react.production.min.js',
    'react-dom.production.min.js',
  ]) {
    t.is((await fetch(`${vela.urls.search}/graphql/assets/${asset}`)).status, 200, asset);
  }

  // Both archives carry the extraction library (@vela/extraction, a workspace package) with tesseract.js and its
  // language data: OCR answers from the ocr archive (on the search service), and the connector's filesystem kind reads
  // a scan.
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
  // A PDF with a text layer: pdfjs-dist's legacy build (what the extraction library keeps of pdfjs-dist) reads it.
  const pdf = await PDFDocument.create();
  pdf.addPage([400, 200]).drawText('Portable document from the packed connector', {
    x: 20,
    y: 100,
    size: 14,
    font: await pdf.embedFont(StandardFonts.Helvetica),
  });
  writeFileSync(path.join(scans, 'words.pdf'), await pdf.save());
  const scanSource = await json(`${connector}/source`, {
    method: 'POST',
    body: JSON.stringify({
      name: 'scans',
      kind: 'filesystem',
      sites: ['Packed'],
      locale: 'en_US',
      settings: { root: scans },
    }),
  });
  t.is(scanSource.status, 201, JSON.stringify(scanSource.body));
  t.is((await json(`${connector}/index/scans/all`)).body.status, 'sent');
  await eventually(
    async () => (await json(`${connector}/monitoring/indexing/stats/scans`)).body?.[0]?.status === 'COMPLETED',
    'the scans run to end',
    90_000,
  );
  const archived = await json(`${vela.urls.search}/api/sn/Packed/search?q=archives&_setlocale=en_US`);
  t.is(archived.body.queryContext?.count, 1, JSON.stringify(archived.body.queryContext));
  const portable = await json(`${vela.urls.search}/api/sn/Packed/search?q=portable&_setlocale=en_US`);
  t.is(portable.body.queryContext?.count, 1, JSON.stringify(portable.body.queryContext));

  // The integration plugin answers from its archive on the search service.
  const integrations = await json(`${vela.urls.search}/api/integration`);
  t.is(integrations.status, 200, JSON.stringify(integrations.body));
  t.deepEqual(integrations.body, []);
  // genai and cms answer from their archives on the search and connector services.
  const llm = await json(`${vela.urls.search}/api/llm`);
  t.is(llm.status, 200, JSON.stringify(llm.body));
  t.true(Array.isArray(llm.body));
  const cms = await json(`${vela.urls.connector}/api/v2/cms/source`);
  t.is(cms.status, 200, JSON.stringify(cms.body));
  // genai's token counter loads gpt-tokenizer's o200k_base encoding, the one part of that package its archive keeps.
  const cache = path.join(home, 'data', 'plugin-cache');
  const genai = readdirSync(cache).find((entry) => entry.startsWith('genai-1.0.0-'));
  const tokenizer = path.join(cache, genai!, 'package', 'node_modules', 'gpt-tokenizer');
  t.false(existsSync(path.join(tokenizer, 'cjs')), 'its CommonJS build stays out');
  const { countTokens } = (await import(
    pathToFileURL(path.join(tokenizer, 'esm', 'encoding', 'o200k_base.js')).href
  )) as {
    countTokens: (text: string) => number;
  };
  t.is(countTokens('hello world'), 2);
});

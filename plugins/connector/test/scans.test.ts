import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { PDFDocument } from 'pdf-lib';
import { startTestSite } from './fixtures/test-site.js';
import { call, createSite, runAndWait, searchCall, startConnector, tempDir } from './helpers.js';

// A folder of scans (images, and a PDF of page images without a text layer) becomes searchable: the
// filesystem and web kinds extract through the shared extraction library, OCR included, on the worker pool.

async function renderText(lines: string[], format: 'png' | 'jpeg' = 'png', width = 1200, fontSize = 40): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, Math.round(fontSize * 1.8 * lines.length + fontSize * 1.5));
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#000000';
  g.font = `${fontSize}px sans-serif`;
  lines.forEach((line, i) => {
    g.fillText(line, fontSize, Math.round(fontSize * 1.6 + i * fontSize * 1.8));
  });
  return new Uint8Array(format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg'));
}

async function scannedPdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(await renderText(lines, 'png', 1650, 44));
  const page = doc.addPage([595, 842]);
  const height = (png.height * 535) / png.width;
  page.drawImage(png, { x: 30, y: 812 - height, width: 535, height });
  return doc.save();
}

async function hits(vela: Awaited<ReturnType<typeof startConnector>>, site: string, q: string): Promise<string[]> {
  const res = await searchCall(vela, 'GET', `/api/sn/${site}/search?q=${encodeURIComponent(q)}&_setlocale=en_US`);
  return (res.body.results?.document ?? []).map((d: any) => d.fields.id).sort();
}

test('a folder of scans becomes searchable: images and a PDF without a text layer are recognized and indexed', async (t) => {
  const vela = await startConnector();
  t.teardown(() => vela.stop());
  await createSite(vela, 'Scans');
  const root = path.join(tempDir(), 'scans');
  mkdirSync(root);
  writeFileSync(path.join(root, 'invoice.png'), await renderText(['Invoice for the walrus sanctuary', 'Amount due 480 EUR']));
  writeFileSync(path.join(root, 'receipt.jpg'), await renderText(['Receipt from the zeppelin hangar'], 'jpeg'));
  writeFileSync(path.join(root, 'contract.pdf'), await scannedPdf(['Signed contract about lighthouse maintenance']));
  writeFileSync(path.join(root, 'typed.txt'), 'A typed note about the walrus sanctuary.');
  const created = await call(vela, 'POST', '/api/v2/connector/source', { name: 'scans', kind: 'filesystem', sites: ['Scans'], settings: { root } });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.deepEqual(created.body.settings.ocrLanguages, ['eng']);
  const run = await runAndWait(vela, '/api/v2/connector/index/scans/all', 'scans');
  t.like(run, { status: 'COMPLETED', documentCount: 4, indexed: 4, errors: 0 });
  t.deepEqual(await hits(vela, 'Scans', 'walrus'), ['invoice.png', 'typed.txt']);
  t.deepEqual(await hits(vela, 'Scans', 'zeppelin'), ['receipt.jpg']);
  t.deepEqual(await hits(vela, 'Scans', 'lighthouse'), ['contract.pdf']);
  const doc = (await searchCall(vela, 'GET', '/api/sn/Scans/search?q=lighthouse&_setlocale=en_US')).body.results.document[0];
  t.regex(String(doc.fields.text), /Signed contract about <mark>lighthouse<\/mark> maintenance/);
});

test('a web source with includeImages and includePdf indexes the scans a crawl finds', async (t) => {
  const png = await renderText(['Poster announcing the aardvark festival']);
  const pdf = await scannedPdf(['Minutes of the narwhal committee']);
  const site = await startTestSite(() => ({
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\n' },
    '/': {
      type: 'text/html',
      body: '<html><head><title>Home</title></head><body><a href="/poster.png">poster</a> <a href="/minutes.pdf">minutes</a></body></html>',
    },
    '/poster.png': { type: 'image/png', body: png },
    '/minutes.pdf': { type: 'application/pdf', body: pdf },
  }));
  t.teardown(() => site.close());
  const vela = await startConnector({ config: { runtime: { network: { allowHosts: [new URL(site.origin).host] } } } });
  t.teardown(() => vela.stop());
  await createSite(vela, 'Web');
  const created = await call(vela, 'POST', '/api/v2/connector/source', {
    name: 'web',
    kind: 'web',
    sites: ['Web'],
    settings: { seeds: [`${site.origin}/`], delayMs: 0, sitemaps: false, includeImages: true, includePdf: true },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(await runAndWait(vela, '/api/v2/connector/index/web/all', 'web'), { status: 'COMPLETED', errors: 0 });
  t.deepEqual(await hits(vela, 'Web', 'aardvark'), [`${site.origin}/poster.png`]);
  t.deepEqual(await hits(vela, 'Web', 'narwhal'), [`${site.origin}/minutes.pdf`]);
});

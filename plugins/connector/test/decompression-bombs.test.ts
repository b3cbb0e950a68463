import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPooledExtract, EXTRACT_TASK_FILE, type ExtractedContent, type ExtractInput } from '@vela/extraction';
import test from 'ava';
import { createLogger, testFolder, WorkerPool } from 'vela/testing';
import { hugePagePdf, hugePng, pdfWithHugeImage } from '../../../packages/extraction/test/fixtures/bombs.js';
import { makePdf } from '../../../packages/extraction/test/fixtures/documents.js';
import type { SourceDocument, SourceReadError } from '../api.js';
import { filesystemSourceKind } from '../sources/filesystem/filesystem-kind.js';
import type { FilesystemSettings } from '../sources/filesystem/settings.js';
import { isReadError } from '../sources/read-error.js';
import type { WebSettings } from '../sources/web/settings.js';
import { webSourceKind } from '../sources/web/web-kind.js';
import { readAll } from './fixtures/read-context.js';
import { page, startTestSite } from './fixtures/test-site.js';
import { createFolderSource, runAndWait, searchRecords, startWithSite } from './helpers.js';

// Decompression bombs found by the filesystem and web sources, extracted on a real pool as in the connector: each is
// that document's read error (too_large, naming the limit), found from its headers before anything is rendered or
// decoded (rendering one would take seconds and hundreds of megabytes); the other documents of the run are read as
// usual.

const pool = new WorkerPool(
  { minThreads: 2, maxThreads: 2, idleTimeoutMs: 600_000 },
  createLogger({ level: 'silent' }),
);
const extract = createPooledExtract(pool.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE));
test.after.always(() => pool.close());

test.before(async () => {
  // Each pool thread loads the PDF and HTML readers on its first document (seconds on a busy machine): not measured.
  const pdf = await makePdf({ pages: [['warm']] });
  const html = { bytes: new TextEncoder().encode('<title>warm</title><p>warm</p>'), contentType: 'text/html' };
  await Promise.all([extract({ bytes: pdf }), extract({ bytes: pdf }), extract(html), extract(html)]);
});

const errorsOf = (items: Array<SourceDocument | SourceReadError>) =>
  Object.fromEntries(items.filter(isReadError).map((i) => [i.id.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''), i.error]));

const EXPECTED = {
  png: 'too_large: the image is 7990 × 7990 pixels (63840100), over the limit of 25000000 pixels',
  page: 'too_large: page 1 of the PDF, rendered at 72 dpi, is 14400 × 14400 pixels (207360000), over the limit of 25000000 pixels',
  image: 'too_large: an image in the PDF is 7990 × 7990 pixels (63840100), over the limit of 25000000 pixels',
};

test.serial('a filesystem source records each bomb as a read error from its headers, and reads the rest', async (t) => {
  const root = testFolder(t, 'fs-bombs');
  writeFileSync(path.join(root, 'bomb.png'), hugePng());
  writeFileSync(path.join(root, 'page.pdf'), hugePagePdf());
  writeFileSync(path.join(root, 'image.pdf'), pdfWithHugeImage());
  writeFileSync(path.join(root, 'notes.txt'), 'Notes kept beside the bombs');
  const began = performance.now();
  const items = await readAll<Partial<FilesystemSettings> & { root: string }>(
    filesystemSourceKind,
    { root },
    { extract },
  );
  const ms = performance.now() - began;
  t.deepEqual(errorsOf(items), { 'bomb.png': EXPECTED.png, 'page.pdf': EXPECTED.page, 'image.pdf': EXPECTED.image });
  t.is((items.find((i) => i.id === 'notes.txt') as SourceDocument).attributes.text, 'Notes kept beside the bombs');
  t.log(`the folder (four files) was read in ${Math.round(ms)} ms`);
});

test.serial(
  'a web source records each bomb it finds as a read error from its headers, and indexes the rest',
  async (t) => {
    const site = await startTestSite(() => ({
      '/': page('Home', ['/bomb.png', '/page.pdf', '/image.pdf']),
      '/bomb.png': { type: 'image/png', body: hugePng() },
      '/page.pdf': { type: 'application/pdf', body: hugePagePdf() },
      '/image.pdf': { type: 'application/pdf', body: pdfWithHugeImage() },
    }));
    t.teardown(() => site.close());
    const settings = {
      seeds: [`${site.origin}/`],
      delayMs: 0,
      sitemaps: false,
      robotsTxt: false,
      includePdf: true,
      includeImages: true,
    };
    const began = performance.now();
    const items = await readAll(webSourceKind, settings as Partial<WebSettings> as WebSettings, { extract });
    const ms = performance.now() - began;
    t.deepEqual(errorsOf(items), {
      '/bomb.png': EXPECTED.png,
      '/page.pdf': EXPECTED.page,
      '/image.pdf': EXPECTED.image,
    });
    t.is((items.find((i) => i.id === `${site.origin}/`) as SourceDocument).attributes.title, 'Home');
    t.log(`the site (four documents) was crawled in ${Math.round(ms)} ms`);
  },
);

test.serial('the connector applies plugins.connector.maxImagePixels to its sources', async (t) => {
  t.timeout(180_000);
  const vela = await startWithSite(t, 'Scans', { connector: { maxImagePixels: 1_000_000 } });
  await createFolderSource(vela, 'scans', 'Scans', {
    // 1.2 megapixels: far under the default limit, over the one configured here.
    'scan.png': hugePng(1200, 1000),
    'notes.txt': 'Notes beside the scan',
  });
  t.like(await runAndWait(vela, '/api/v2/connector/index/scans/all', 'scans'), {
    status: 'COMPLETED',
    indexed: 1,
    errors: 1,
  });
  const errors = await searchRecords(vela, 'scans', 'ERROR');
  t.is(errors.body.content.length, 1, JSON.stringify(errors.body));
  t.like(errors.body.content[0], { objectId: 'scan.png' });
  t.true(
    JSON.stringify(errors.body.content[0]).includes(
      'the image is 1200 × 1000 pixels (1200000), over the limit of 1000000 pixels',
    ),
    JSON.stringify(errors.body.content[0]),
  );
});

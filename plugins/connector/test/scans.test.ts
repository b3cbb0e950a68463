import test from 'ava';
import { makeScannedPdf, renderText } from '../../../packages/extraction/test/fixtures/documents.js';
import { startTestSite } from './fixtures/test-site.js';
import {
  call,
  createFolderSource,
  searchCall,
  type startConnector,
  startWebSource,
  startWithSite,
  waitForRun,
} from './helpers.js';

// A folder of scans (images, and a PDF of page images without a text layer) becomes searchable: the
// filesystem and web kinds extract through the shared extraction library, OCR included, on the worker pool.

// The size of the text on the scanned images.
const SCAN = { width: 1200, fontSize: 40 };

// OCR of a few pages takes seconds on an idle machine and much longer on a loaded one: a run gets two minutes.
const RUN_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 240_000;

/** Start a run of every document of `source` and wait for its end, within RUN_TIMEOUT_MS. */
async function runAll(vela: Awaited<ReturnType<typeof startConnector>>, source: string): Promise<any> {
  const sent = await call(vela, 'GET', `/api/v2/connector/index/${source}/all`);
  if (sent.status !== 200 || sent.body.status !== 'sent')
    throw new Error(`trigger failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  return waitForRun(vela, source, sent.body.runId, RUN_TIMEOUT_MS);
}

/** The error records of a source, to say in a failed assertion which document failed and why. */
async function failures(vela: Awaited<ReturnType<typeof startConnector>>, source: string): Promise<string> {
  const records = await call(vela, 'GET', `/api/v2/connector/monitoring/index/${source}`);
  const errors =
    records.status === 200
      ? (records.body as Array<{ status: string; objectId: string; error: string | null }>).filter(
          (r) => r.status === 'ERROR',
        )
      : [];
  return JSON.stringify(errors.map((r) => ({ id: r.objectId, error: r.error })));
}

async function hits(vela: Awaited<ReturnType<typeof startConnector>>, site: string, q: string): Promise<string[]> {
  const res = await searchCall(vela, 'GET', `/api/sn/${site}/search?q=${encodeURIComponent(q)}&_setlocale=en_US`);
  return (res.body.results?.document ?? []).map((d: any) => d.fields.id).sort();
}

test('a folder of scans becomes searchable: images and a PDF without a text layer are recognized and indexed', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const vela = await startWithSite(t, 'Scans');
  const { created } = await createFolderSource(vela, 'scans', 'Scans', {
    'invoice.png': await renderText(['Invoice for the walrus sanctuary', 'Amount due 480 EUR'], 'png', SCAN),
    'receipt.jpg': await renderText(['Receipt from the zeppelin hangar'], 'jpeg', SCAN),
    'contract.pdf': await makeScannedPdf([['Signed contract about lighthouse maintenance']]),
    'typed.txt': 'A typed note about the walrus sanctuary.',
  });
  t.deepEqual(created.body.settings.ocrLanguages, ['eng']);
  const run = await runAll(vela, 'scans');
  t.like(run, { status: 'COMPLETED', documentCount: 4, indexed: 4, errors: 0 }, await failures(vela, 'scans'));
  t.deepEqual(await hits(vela, 'Scans', 'walrus'), ['invoice.png', 'typed.txt']);
  t.deepEqual(await hits(vela, 'Scans', 'zeppelin'), ['receipt.jpg']);
  t.deepEqual(await hits(vela, 'Scans', 'lighthouse'), ['contract.pdf']);
  const doc = (await searchCall(vela, 'GET', '/api/sn/Scans/search?q=lighthouse&_setlocale=en_US')).body.results
    .document[0];
  t.regex(String(doc.fields.text), /Signed contract about <mark>lighthouse<\/mark> maintenance/);
});

test('a web source with includeImages and includePdf indexes the scans a crawl finds', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const png = await renderText(['Poster announcing the aardvark festival'], 'png', SCAN);
  const pdf = await makeScannedPdf([['Minutes of the narwhal committee']]);
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
  const vela = await startWebSource(t, site, { includeImages: true, includePdf: true });
  t.like(await runAll(vela, 'web'), { status: 'COMPLETED', errors: 0 }, await failures(vela, 'web'));
  t.deepEqual(await hits(vela, 'Web', 'aardvark'), [`${site.origin}/poster.png`]);
  t.deepEqual(await hits(vela, 'Web', 'narwhal'), [`${site.origin}/minutes.pdf`]);
});

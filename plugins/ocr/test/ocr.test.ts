import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { characterAccuracy, makeDocx, makePdf, makeScannedPdf, makeXlsx, renderText } from './fixtures/documents.js';
import { makeEncryptedPdf } from './fixtures/encrypted-pdf.js';
import { assertTimedOut, heldUpload } from './fixtures/held-upload.js';

// OCR over HTTP: documents the test makes with known text go through POST /api/ocr/file and /api/ocr/url, on
// the runtime's worker pool. Fetched documents come from a loopback server the test starts (allowed by the
// operator's allowlist); nothing leaves 127.0.0.1. The tests run one at a time: recognition is CPU-bound and the
// pool has at most two threads, so concurrent tests would only wait on each other (the address rules with a
// connect spy are in ocr-url-guard.test.ts, the queue in ocr-queue.test.ts).

const LINES = ['Quarterly report for Vela Search', 'Revenue grew 12 percent in March'];
const EXPECTED = LINES.join('\n');
const MAX_BYTES = 2 * 1024 * 1024;

interface Served {
  port: number;
  requests: string[];
}

/** Documents by path, a redirect and a 404, on 127.0.0.1. */
async function documentServer(
  files: Record<string, { type: string; body: Uint8Array }>,
): Promise<Served & { close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/moved') return void res.writeHead(302, { location: '/docs/scan.png' }).end();
    if (req.url === '/to-metadata')
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (req.url === '/to-nowhere') return void res.writeHead(302, { location: 'http://[not-an-address/x' }).end();
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end('missing');
    res.writeHead(200, { 'content-type': file.type, 'last-modified': 'Tue, 05 Mar 2024 10:00:00 GMT' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let vela: TestRuntime;
let served: Served & { close(): Promise<void> };
let png: Uint8Array;

test.before(async () => {
  png = await renderText(LINES);
  served = await documentServer({
    '/docs/scan.png': { type: 'image/png', body: png },
    '/docs/big.bin': { type: 'application/octet-stream', body: new Uint8Array(MAX_BYTES + 10) },
    // A last path segment that does not decode (%ff is an escape, but not of UTF-8): the name is taken as it is.
    '/%ff.txt': { type: 'text/plain', body: new TextEncoder().encode('a note with an odd name') },
  });
  vela = await startTestRuntime({
    plugins: ['search', 'ocr'],
    config: {
      runtime: { network: { allowHosts: [`127.0.0.1:${served.port}`] } },
      // A busy machine may keep a document waiting for a thread a while: the wait is not what these tests measure.
      plugins: { ocr: { maxBytes: MAX_BYTES, maxPending: 64, queueTimeoutMs: 150_000 } },
    },
  });
});
test.after.always(async () => {
  await vela?.stop();
  await served?.close();
});

/** A multipart form whose part "file" is `bytes`, named `name`, of `type` when given. */
function fileForm(bytes: Uint8Array | string, name: string, type?: string): FormData {
  const form = new FormData();
  form.append(
    'file',
    new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], type ? { type } : {}),
    name,
  );
  return form;
}

/** Four scanned pages of twenty lines: seconds of recognition per page. */
async function longScanForm(): Promise<FormData> {
  const lines = Array.from(
    { length: 20 },
    (_, i) => `Line ${i + 1} of a long scanned page about lighthouse maintenance`,
  );
  return fileForm(await makeScannedPdf([lines, lines, lines, lines]), 'long.pdf', 'application/pdf');
}

/** A runtime of the test's own with the OCR settings `ocr`; it stops when the test ends. */
async function startOcr(t: ExecutionContext, ocr: Record<string, unknown>): Promise<TestRuntime> {
  const runtime = await startTestRuntime({ plugins: ['search', 'ocr'], config: { plugins: { ocr } } });
  t.teardown(() => runtime.stop());
  return runtime;
}

async function upload(
  bytes: Uint8Array,
  name: string,
  type?: string,
  query = '',
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await vela.fetch('search', `/api/ocr/file${query}`, {
    method: 'POST',
    body: fileForm(bytes, name, type),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function byUrl(body: unknown): Promise<{ status: number; body: any }> {
  const res = await vela.fetch('search', '/api/ocr/url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test.serial(
  'an uploaded image is recognized on the worker pool: the file attributes, with text at least 95% right, and no credentials needed',
  async (t) => {
    t.timeout(180_000);
    const res = await upload(png, 'scan.png', 'image/png');
    t.is(res.status, 200, JSON.stringify(res.body));
    t.is(res.body.name, 'scan.png');
    t.is(res.body.contentType, 'image/png');
    t.is(res.body.size, png.byteLength);
    const accuracy = characterAccuracy(EXPECTED, res.body.text);
    t.true(accuracy >= 0.95, `accuracy ${accuracy}: ${JSON.stringify(res.body.text)}`);
    t.deepEqual(res.body.metadata, {
      pages: 1,
      language: 'eng',
      title: null,
      author: null,
      created: null,
      modified: null,
    });
    const jpeg = await upload(await renderText(LINES, 'jpeg'), 'scan.jpg');
    t.is(jpeg.body.contentType, 'image/jpeg');
    t.true(characterAccuracy(EXPECTED, jpeg.body.text) >= 0.95, jpeg.body.text);
  },
);

test.serial('PDFs: the text layer with its metadata, and a scan recognized page by page', async (t) => {
  t.timeout(180_000);
  const typed = await upload(
    await makePdf({
      title: 'Annual report',
      author: 'Grace Hopper',
      pages: [['Typed text on page one'], ['And page two']],
    }),
    'r.pdf',
  );
  t.is(typed.status, 200, JSON.stringify(typed.body));
  t.is(typed.body.text, 'Typed text on page one\nAnd page two');
  t.deepEqual(typed.body.metadata, {
    pages: 2,
    language: null,
    title: 'Annual report',
    author: 'Grace Hopper',
    created: '2024-05-01T08:00:00.000Z',
    modified: '2024-05-02T09:00:00.000Z',
  });
  const scanned = await upload(await makeScannedPdf([LINES]), 'scan.pdf', 'application/pdf');
  t.is(scanned.status, 200, JSON.stringify(scanned.body));
  t.is(scanned.body.metadata.pages, 1);
  t.is(scanned.body.metadata.language, 'eng');
  t.true(characterAccuracy(EXPECTED, scanned.body.text) >= 0.95, scanned.body.text);
});

test.serial('DOCX and XLSX are read as text', async (t) => {
  t.timeout(180_000);
  const docx = await upload(await makeDocx('Meeting minutes', ['We agreed on the plan.']), 'minutes.docx');
  t.is(docx.status, 200, JSON.stringify(docx.body));
  t.is(docx.body.text, 'Meeting minutes\nWe agreed on the plan.');
  t.is(docx.body.metadata.title, 'Meeting minutes');
  const xlsx = await upload(
    await makeXlsx('Figures', [
      ['Region', 'Sales'],
      ['North', 120],
    ]),
    'figures.xlsx',
  );
  t.is(xlsx.status, 200, JSON.stringify(xlsx.body));
  t.is(xlsx.body.text, 'Data\nRegion Sales\nNorth 120');
  t.is(xlsx.body.metadata.title, 'Figures');
  t.is(xlsx.body.metadata.author, 'Ada Lovelace');
});

test.serial(
  'the language is chosen per request, among the languages whose data ships; an unknown one is 400',
  async (t) => {
    t.timeout(180_000);
    const lines = ['Relatório de ação rápida', 'São Paulo não é só informação'];
    const res = await upload(await renderText(lines), 'pt.png', 'image/png', '?language=por');
    t.is(res.status, 200, JSON.stringify(res.body));
    t.is(res.body.metadata.language, 'por');
    t.true(characterAccuracy(lines.join('\n'), res.body.text) >= 0.9, res.body.text);
    const unknown = await upload(png, 'x.png', 'image/png', '?language=klingon');
    t.is(unknown.status, 400);
    t.deepEqual(Object.keys(unknown.body).sort(), ['error', 'message']);
    t.regex(unknown.body.message, /language "klingon" has no OCR data; use one or more of eng, por/);
  },
);

test.serial(
  'error statuses, all in the one JSON shape: 413 too large, 415 unsupported, 422 corrupt, 400 without the file part',
  async (t) => {
    t.timeout(180_000);
    const tooLarge = await upload(new Uint8Array(MAX_BYTES + 1), 'big.png', 'image/png');
    t.is(tooLarge.status, 413);
    t.is(tooLarge.body.error, 'payload_too_large');
    t.regex(tooLarge.body.message, /larger than the OCR limit of 2097152 bytes \(plugins\.ocr\.maxBytes\)/);

    const gif = await upload(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'anim.gif', 'image/gif');
    t.is(gif.status, 415);
    t.is(gif.body.error, 'unsupported_media_type');
    t.regex(gif.body.message, /content type image\/gif, file "anim\.gif"/);

    const notMultipart = await vela.fetch('search', '/api/ocr/file', {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: 'x',
    });
    t.is(notMultipart.status, 415);
    t.regex((await notMultipart.json()).message, /takes multipart\/form-data with the document in the part "file"/);

    const corrupt = await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]), 'broken.pdf');
    t.is(corrupt.status, 422);
    t.is(corrupt.body.error, 'unprocessable_document');
    t.regex(corrupt.body.message, /PDF cannot be read/);
    const cutImage = await upload(png.subarray(0, 30), 'cut.png');
    t.is(cutImage.status, 422);

    const form = new FormData();
    form.append('other', 'value');
    const missing = await vela.fetch('search', '/api/ocr/file', { method: 'POST', body: form });
    t.is(missing.status, 400);
    t.deepEqual(await missing.json(), {
      error: 'missing_file',
      message: 'the multipart body has no file part named "file"',
    });
  },
);

test.serial('a password-protected PDF is 422 encrypted_document', async (t) => {
  t.timeout(180_000);
  const encrypted = await upload(
    makeEncryptedPdf('Confidential salary list', 'secret'),
    'salaries.pdf',
    'application/pdf',
  );
  t.is(encrypted.status, 422, JSON.stringify(encrypted.body));
  t.is(encrypted.body.error, 'encrypted_document');
  t.regex(encrypted.body.message, /the PDF is password-protected/);
  t.false(JSON.stringify(encrypted.body).includes('Confidential'));
});

test.serial(
  'by URL: fetched through the outbound guard (redirects checked again, internal addresses refused naming the rule), bounded in size',
  async (t) => {
    t.timeout(180_000);
    const base = `http://127.0.0.1:${served.port}`;
    const ok = await byUrl({ url: `${base}/docs/scan.png` });
    t.is(ok.status, 200, JSON.stringify(ok.body));
    t.is(ok.body.name, 'scan.png');
    t.is(ok.body.metadata.modified, '2024-03-05T10:00:00.000Z', 'the Last-Modified of the answer');
    t.true(characterAccuracy(EXPECTED, ok.body.text) >= 0.95, ok.body.text);

    const moved = await byUrl({ url: `${base}/moved` });
    t.is(moved.status, 200, 'a redirect on the allowed host is followed');
    t.is(moved.body.name, 'scan.png');

    const before = served.requests.length;
    const metadata = await byUrl({ url: `${base}/to-metadata` });
    t.is(metadata.status, 403);
    t.is(metadata.body.error, 'address_refused');
    t.regex(metadata.body.message, /cloud metadata/);
    t.is(served.requests.length, before + 1, 'only the redirect itself was requested');

    const otherPort = await byUrl({ url: 'http://127.0.0.1:9/x.png' });
    t.is(otherPort.status, 403, 'the allowlist names host and port');
    t.regex(otherPort.body.message, /loopback/);
    t.is((await byUrl({ url: 'http://[::ffff:7f00:1]/x' })).status, 403);
    t.is((await byUrl({ url: 'http://2130706433/x' })).body.error, 'address_refused');
    t.regex((await byUrl({ url: 'file:///etc/passwd' })).body.message, /\(scheme\)/);

    const oddName = await byUrl({ url: `${base}/%ff.txt` });
    t.is(oddName.status, 200, JSON.stringify(oddName.body));
    t.is(oddName.body.name, '%ff.txt', 'a name that does not decode is kept as it came');
    t.is(oddName.body.text, 'a note with an odd name');

    // Not URLs: a % without two hex digits (which WHATWG parsing would let through), no URL at all. Nothing is fetched.
    const requested = served.requests.length;
    for (const [url, problem] of [
      [`${base}/%E0%A4%A.txt`, 'has a % that is not followed by two hex digits (a literal % is written %25)'],
      [
        `${base}/report.pdf?discount=50%`,
        'has a % that is not followed by two hex digits (a literal % is written %25)',
      ],
      ['not a url', 'is not an absolute URL'],
      ['/docs/scan.png', 'is not an absolute URL'],
    ]) {
      const bad = await byUrl({ url });
      t.is(bad.status, 400, url);
      t.deepEqual(bad.body, { error: 'invalid_parameter', message: `body.url ${problem}` }, url);
    }
    t.is(served.requests.length, requested, 'no bad URL was requested');
    const nowhere = await byUrl({ url: `${base}/to-nowhere` });
    t.is(nowhere.status, 502, "a redirect to a Location that is no URL is the upstream's fault");
    t.deepEqual(nowhere.body, {
      error: 'upstream_error',
      message: `${base}/to-nowhere redirected to a Location that is not a URL`,
    });

    const missing = await byUrl({ url: `${base}/docs/none.pdf` });
    t.is(missing.status, 502);
    t.regex(missing.body.message, /answered HTTP 404/);
    const big = await byUrl({ url: `${base}/docs/big.bin` });
    t.is(big.status, 413);
    t.is(big.body.error, 'payload_too_large');
    t.is((await byUrl({})).status, 400);
  },
);

test.serial('the endpoints are public in the OpenAPI document', async (t) => {
  t.timeout(180_000);
  const doc = (await (await vela.fetch('search', '/v3/api-docs')).json()) as any;
  for (const path of ['/api/ocr/file', '/api/ocr/url']) {
    t.truthy(doc.paths[path]?.post, path);
    t.deepEqual(doc.paths[path].post.security, [], `${path} is public`);
  }
});

test.serial(
  'an upload still arriving holds no place; past maxPending documents in progress, a whole upload is answered 503 with Retry-After',
  async (t) => {
    t.timeout(180_000);
    // The held upload below sends nothing for as long as the test needs: the minimum rate is not tested here, nor
    // the time limits (four scanned pages take a minute on a machine busy with other work).
    const busy = await startOcr(t, {
      maxPending: 1,
      timeoutMs: 150_000,
      queueTimeoutMs: 150_000,
      uploadMinBytesPerSecond: 1,
      uploadRateWindowMs: 600_000,
      uploadIdleMs: 600_000,
      uploadTimeoutMs: 600_000,
    });
    // An upload that starts and does not finish: it takes no place of the one, as its file has not arrived.
    const holder = heldUpload(busy, 'slow.png');
    t.teardown(() => holder.request.destroy());
    holder.request.write(Buffer.from(png.subarray(0, 100)));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const form = fileForm(png, 'scan.png', 'image/png');
    t.is(
      (await busy.fetch('search', '/api/ocr/file', { method: 'POST', body: form })).status,
      200,
      'served while the other upload is still arriving',
    );

    // A document being recognized (four scanned pages: seconds) holds the one place.
    const long = await longScanForm();
    const first = busy.fetch('search', '/api/ocr/file', { method: 'POST', body: long });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const refused = await busy.fetch('search', '/api/ocr/file', { method: 'POST', body: form });
    t.is(refused.status, 503);
    t.regex(refused.headers.get('retry-after') ?? '', /^\d+$/);
    const body = await refused.json();
    t.is(body.error, 'ocr_busy');
    t.regex(body.message, /the OCR queue is full \(1 documents in progress, plugins\.ocr\.maxPending\)/);
    const firstAnswer = await first;
    t.is(firstAnswer.status, 200, await firstAnswer.text());

    // The held upload completes: it takes the place that is free again.
    holder.request.end(Buffer.concat([Buffer.from(png.subarray(100)), Buffer.from('\r\n--stall--\r\n')]));
    t.is((await holder.answer).status, 200);
  },
);

test.serial(
  'time bounds: a document over timeoutMs is 422 extraction_timeout; an upload that stalls or trickles is 408 and gives its place back',
  async (t) => {
    t.timeout(180_000);
    const bounded = await startOcr(t, { timeoutMs: 1000, uploadIdleMs: 1000, uploadTimeoutMs: 3000, maxPending: 1 });
    // Seconds of recognition per page, far over one second.
    const slow = await bounded.fetch('search', '/api/ocr/file', { method: 'POST', body: await longScanForm() });
    const body = await slow.json();
    t.is(slow.status, 422, JSON.stringify(body));
    t.deepEqual(body, {
      error: 'extraction_timeout',
      message: 'the document took longer than the OCR time limit of 1000 ms (plugins.ocr.timeoutMs)',
    });

    // An upload that sends its first bytes and then nothing holds the one place only until uploadIdleMs.
    const stalled = heldUpload(bounded, 'slow.png');
    stalled.request.write(Buffer.from(png.subarray(0, 100)));
    const timedOut = await stalled.answer;
    stalled.request.destroy();
    assertTimedOut(t, timedOut, 'the upload sent nothing for 1000 ms (plugins.ocr.uploadIdleMs)');

    // One that trickles (a few bytes every 100 ms, never idle for uploadIdleMs) is ended at uploadTimeoutMs.
    const trickling = heldUpload(bounded, 'slow.png');
    let offset = 0;
    const drip = setInterval(() => {
      if (!trickling.request.destroyed) trickling.request.write(Buffer.from(png.subarray(offset, offset + 8)));
      offset += 8;
    }, 100);
    t.teardown(() => clearInterval(drip));
    const cut = await trickling.answer;
    clearInterval(drip);
    trickling.request.destroy();
    assertTimedOut(t, cut, 'the upload took longer than 3000 ms (plugins.ocr.uploadTimeoutMs)');

    const text = fileForm('a short note', 'note.txt', 'text/plain');
    const next = await bounded.fetch('search', '/api/ocr/file', { method: 'POST', body: text });
    const nextBody = await next.clone().text();
    t.is(next.status, 200, `the place of maxPending (1) was given back: ${nextBody}`);
    t.is((await next.json()).text, 'a short note');
  },
);

import test from 'ava';
import { Document, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { createLogger, WorkerPool } from 'vela/testing';
import { ExtractionError, extractContent } from '../src/extract.js';
import { endWarmWorkers, warmLanguageSets } from '../src/ocr/tesseract.js';
import { createPooledExtract, EXTRACT_TASK_FILE } from '../src/pooled-extract.js';
import type { ExtractedContent, ExtractInput } from '../src/types.js';
import { hugePagePdf, hugePng, pdfWithHugeImage, pdfWithLyingJpeg } from './fixtures/bombs.js';
import { makePdf } from './fixtures/documents.js';

// Decompression bombs: a few hundred bytes or kilobytes that claim tens or hundreds of megapixels. Each is
// refused from its headers (the default limit, 25 megapixels, named in the message) before anything is
// rasterized or decoded: the message gives the size the header claims, which only the check before the render
// can name. How fast the refusals are is a benchmark's goal (scripts/bench/ocr-bombs.ts), not a timed assertion
// here; each test logs its time.

test.after.always(() => endWarmWorkers());

test.before(async () => {
  // pdfjs loads on the first PDF (seconds on a busy machine): that is not what is measured.
  await extractContent({ bytes: await makePdf({ pages: [['warm']] }) });
});

async function refusal(input: ExtractInput): Promise<{ error: ExtractionError; ms: number }> {
  const began = performance.now();
  try {
    await extractContent(input);
  } catch (error) {
    if (error instanceof ExtractionError) return { error, ms: performance.now() - began };
    throw error;
  }
  throw new Error('the bomb was extracted');
}

test.serial('a 79 KB PNG of 7,990 × 7,990 pixels is refused from its header, at once', async (t) => {
  const png = hugePng();
  t.true(png.byteLength < 100_000, `${png.byteLength} bytes`);
  const { error, ms } = await refusal({ bytes: png, fileName: 'bomb.png' });
  t.is(error.code, 'too_large');
  t.is(error.message, 'the image is 7990 × 7990 pixels (63840100), over the limit of 25000000 pixels');
  t.log(`${Math.round(ms)} ms`);
  // A configured limit is the one applied and named.
  const small = await refusal({ bytes: hugePng(1200, 1000), ocr: { maxImagePixels: 1_000_000 } });
  t.is(small.error.message, 'the image is 1200 × 1000 pixels (1200000), over the limit of 1000000 pixels');
});

test.serial('a 400-byte PDF with one 14,400 × 14,400 pt page is refused before the page is rendered', async (t) => {
  const pdf = hugePagePdf();
  t.true(pdf.byteLength < 500, `${pdf.byteLength} bytes`);
  const { error, ms } = await refusal({ bytes: pdf, fileName: 'bomb.pdf' });
  t.is(error.code, 'too_large');
  t.is(
    error.message,
    'page 1 of the PDF, rendered at 72 dpi, is 14400 × 14400 pixels (207360000), over the limit of 25000000 pixels',
  );
  t.log(`${Math.round(ms)} ms`);
  // A page over the limit at pdfDpi but not at 72 dpi is rendered at a lower resolution, not refused.
  const poster = await extractContent({ bytes: hugePagePdf(1500), ocr: { pdfDpi: 200, maxImagePixels: 4_000_000 } });
  t.is(poster.metadata.pageCount, 1);
  t.is(poster.metadata.ocrPages, 1);
});

test.serial('a PDF drawing an image of 7,990 × 7,990 pixels is refused before the image is decoded', async (t) => {
  const pdf = pdfWithHugeImage();
  t.true(pdf.byteLength < 100_000, `${pdf.byteLength} bytes`);
  const { error, ms } = await refusal({ bytes: pdf, fileName: 'bomb.pdf' });
  t.is(error.code, 'too_large');
  t.is(error.message, 'an image in the PDF is 7990 × 7990 pixels (63840100), over the limit of 25000000 pixels');
  t.log(`${Math.round(ms)} ms`);
});

test.serial(
  'a PDF drawing a JPEG whose frame is larger than its dictionary says is refused from the frame header',
  async (t) => {
    const { error, ms } = await refusal({ bytes: pdfWithLyingJpeg(), fileName: 'bomb.pdf' });
    t.is(error.code, 'too_large');
    t.is(error.message, 'an image in the PDF is 8000 × 8000 pixels (64000000), over the limit of 25000000 pixels');
    t.log(`${Math.round(ms)} ms`);
  },
);

test.serial(
  'an image in a PDF whose size is given by reference is left out of the rendered page, never decoded',
  async (t) => {
    t.timeout(60_000);
    const bytes = pdfWithHugeImage(20_000, 20_000, 'by reference');
    const began = performance.now();
    const content = await extractContent({ bytes, fileName: 'bomb.pdf' });
    const ms = performance.now() - began;
    t.is(content.metadata.ocrPages, 1, 'the page was rendered and recognized');
    t.is(content.text, '');
    // Decoding would inflate 400 MB and draw it (over a minute, past the test's timeout); left out, the 200 × 200 pt
    // page takes a moment.
    t.log(`${Math.round(ms)} ms`);
  },
);

test.serial('a DOCX embedding a large image gives its text without reading the image', async (t) => {
  t.timeout(60_000);
  // 120 MB of image data (deflated to about 120 KB in the zip): read and inlined as base64, it took seconds and
  // hundreds of megabytes; only the text is wanted.
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun('Text beside a large picture')] }),
          new Paragraph({
            children: [
              new ImageRun({
                type: 'png',
                data: Buffer.alloc(120 * 1024 * 1024),
                transformation: { width: 100, height: 100 },
              }),
            ],
          }),
        ],
      },
    ],
  });
  const bytes = new Uint8Array(await Packer.toBuffer(doc));
  const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().external;
  const began = performance.now();
  const content = await extractContent({ bytes, fileName: 'picture.docx' });
  const ms = performance.now() - began;
  const grown = process.memoryUsage().heapUsed + process.memoryUsage().external - heapBefore;
  t.is(content.text, 'Text beside a large picture');
  t.true(grown < 100 * 1024 * 1024, `memory grew by ${Math.round(grown / 1024 / 1024)} MiB`);
  t.log(`${Math.round(ms)} ms`);
});

test.serial('on the pool, an image over the limit is refused from its header before a thread is asked', async (t) => {
  const pool = new WorkerPool({ minThreads: 0, maxThreads: 1, idleTimeoutMs: 2000 }, createLogger({ level: 'silent' }));
  t.teardown(() => pool.close());
  const extract = createPooledExtract(pool.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE));
  const error = await t.throwsAsync(extract({ bytes: hugePng(), url: 'https://example.org/bomb.png' }), {
    instanceOf: ExtractionError,
  });
  t.is(error?.code, 'too_large');
  t.like(pool.stats(), { threads: 0, queueSize: 0, completed: 0 }, 'no thread was started');
});

test.serial(
  "after an image over 10 megapixels, the thread's tesseract worker is ended (its memory returns); after a small one it stays warm",
  async (t) => {
    t.timeout(120_000);
    await endWarmWorkers();
    await extractContent({ bytes: hugePng(1000, 200), fileName: 'small.png' });
    t.deepEqual(warmLanguageSets(), ['eng'], 'kept warm after a small image');
    await extractContent({ bytes: hugePng(4000, 3000), fileName: 'large.png' });
    t.deepEqual(warmLanguageSets(), [], 'ended after 12 megapixels');
    await extractContent({ bytes: hugePng(1000, 200), fileName: 'small.png' });
    t.deepEqual(warmLanguageSets(), ['eng'], 'a fresh one for the next image');
  },
);

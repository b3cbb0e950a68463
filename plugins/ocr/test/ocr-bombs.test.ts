import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { hugePagePdf, hugePng, pdfWithHugeImage } from '../../../packages/extraction/test/fixtures/bombs.js';
import { makePdf } from './fixtures/documents.js';

// Decompression bombs through POST /api/ocr/file: each is answered 413 in the error shape, naming the size its
// header claims, the limit and its setting; four at once leave the pool free for a normal document. The time of
// each answer is logged; the goal (each within a second) is judged by scripts/bench/ocr-bombs.ts.

let vela: TestRuntime;

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search', 'ocr'] });
  // The pool's threads and pdfjs load on the first PDF (seconds on a busy machine): not what is measured.
  await upload(await makePdf({ pages: [['warm']] }), 'warm.pdf');
});
test.after.always(async () => {
  await vela?.stop();
});

async function upload(bytes: Uint8Array, name: string): Promise<{ status: number; body: any; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const began = performance.now();
  const res = await vela.fetch('search', '/api/ocr/file', { method: 'POST', body: form });
  return { status: res.status, body: await res.json(), ms: performance.now() - began };
}

test.serial(
  'a PNG of 7,990 × 7,990 pixels, a PDF of one 14,400 pt page and a PDF drawing a huge image: 413 naming the limit, before any render',
  async (t) => {
    t.timeout(120_000);
    const cases = [
      [
        hugePng(),
        'bomb.png',
        'the image is 7990 × 7990 pixels (63840100), over the limit of 25000000 pixels (plugins.ocr.maxImagePixels)',
      ],
      [
        hugePagePdf(),
        'page.pdf',
        'page 1 of the PDF, rendered at 72 dpi, is 14400 × 14400 pixels (207360000), over the limit of 25000000 pixels (plugins.ocr.maxImagePixels)',
      ],
      [
        pdfWithHugeImage(),
        'image.pdf',
        'an image in the PDF is 7990 × 7990 pixels (63840100), over the limit of 25000000 pixels (plugins.ocr.maxImagePixels)',
      ],
    ] as const;
    for (const [bytes, name, message] of cases) {
      const answer = await upload(bytes, name);
      t.is(answer.status, 413, name);
      t.deepEqual(answer.body, { error: 'payload_too_large', message }, name);
      t.log(`${name}: ${Math.round(answer.ms)} ms`);
    }
    // Four at once, as a client would send them, and a normal document right after: nothing was rendered.
    const four = await Promise.all(
      [hugePagePdf(), hugePagePdf(), hugePng(), pdfWithHugeImage()].map((bytes, i) =>
        upload(bytes, `bomb-${i}.${i === 2 ? 'png' : 'pdf'}`),
      ),
    );
    t.deepEqual(
      four.map((a) => a.status),
      [413, 413, 413, 413],
    );
    const normal = await upload(await makePdf({ pages: [['A normal report']] }), 'report.pdf');
    t.is(normal.status, 200);
    t.is(normal.body.text, 'A normal report');
    t.log(`a normal document after four bombs: ${Math.round(normal.ms)} ms`);
  },
);

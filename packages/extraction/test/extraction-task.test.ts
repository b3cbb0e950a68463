import test from 'ava';
import { createLogger, WorkerPool } from 'vela/testing';
import { ExtractionError } from '../src/extraction-error.js';
import { createPooledExtract, EXTRACT_TASK_FILE } from '../src/pooled-extract.js';
import type { ExtractedContent, ExtractInput } from '../src/types.js';
import { makePdf } from './fixtures/documents.js';

// One real piscina pool for the file, as the runtime's worker service holds it.
const pool = new WorkerPool({ minThreads: 0, maxThreads: 2, idleTimeoutMs: 2000 }, createLogger({ level: 'silent' }));
const extract = createPooledExtract(pool.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE));
test.after.always(() => pool.close());

test('the extract task runs in a pool thread and returns the extracted content', async (t) => {
  const pdf = await makePdf({ title: 'Pooled', pages: [['text from a worker thread']] });
  const content = await extract({ bytes: pdf, fileName: 'pooled.pdf' });
  t.is(content.title, 'Pooled');
  t.is(content.text, 'text from a worker thread');
  t.is(content.metadata.pageCount, 1);
  t.true(pool.stats().completed >= 1, 'the pool did the work');
});

test('a Buffer that views the shared allocation pool is read as its own bytes only, in the worker', async (t) => {
  // Small Buffers share Node's 8 KiB allocation pool: only the view's bytes may arrive.
  const before = Buffer.from('<p>noise before</p>');
  const page = Buffer.from('<title>Viewed</title><p>only this</p>');
  t.is(before.buffer, page.buffer, 'both Buffers live in one pool (the case under test)');
  const content = await extract({ bytes: page, contentType: 'text/html' });
  t.is(content.title, 'Viewed');
  t.is(content.text, 'only this');
});

test('an extraction error comes back from the worker as an ExtractionError with its code', async (t) => {
  const corrupt = await t.throwsAsync(extract({ bytes: Buffer.from('%PDF-1.4 nothing else') }), {
    instanceOf: ExtractionError,
  });
  t.is(corrupt?.code, 'corrupt_content');
  t.regex(corrupt!.message, /PDF cannot be read/);
  const unsupported = await t.throwsAsync(
    extract({ bytes: Buffer.from('GIF89a\x01\x00', 'latin1'), contentType: 'image/gif' }),
    {
      instanceOf: ExtractionError,
    },
  );
  t.is(unsupported?.code, 'unsupported_type');
  const cutJpeg = await t.throwsAsync(
    extract({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0]), contentType: 'image/jpeg' }),
    {
      instanceOf: ExtractionError,
    },
  );
  t.is(cutJpeg?.code, 'corrupt_content', 'a JPEG cut short');
  const tooLarge = await t.throwsAsync(extract({ bytes: Buffer.alloc(100), contentType: 'text/plain', maxBytes: 10 }), {
    instanceOf: ExtractionError,
  });
  t.is(tooLarge?.code, 'too_large');
});

test('documents extract in parallel on the pool, each result matching its input', async (t) => {
  const inputs = await Promise.all(
    Array.from({ length: 6 }, (_, i) => makePdf({ title: `Doc ${i}`, pages: [[`body of document ${i}`]] })),
  );
  const results = await Promise.all(inputs.map((bytes) => extract({ bytes })));
  t.deepEqual(
    results.map((r) => [r.title, r.text]),
    inputs.map((_, i) => [`Doc ${i}`, `body of document ${i}`]),
  );
});

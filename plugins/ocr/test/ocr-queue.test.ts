import type { ExtractedContent } from '@vela/extraction';
import test from 'ava';
import { createLogger, OutboundGuard, WorkerPool } from 'vela/testing';
import { type OcrConfig, OcrService, type PoolLoad } from '../recognition/ocr-service.js';
import type { OcrTaskInput } from '../recognition/ocr-task.js';
import { serviceConfig } from './fixtures/service-config.js';

// The OCR time limit counts a document's running time on a pool thread, not its wait in the pool's queue: a
// real piscina pool of one thread, held by another task, makes the document wait. The thread is warmed first
// (its first extraction loads the format readers, which on a busy machine takes seconds).

const base = serviceConfig();

const note = {
  bytes: new TextEncoder().encode('A short note, read as text.'),
  name: 'note.txt',
  contentType: 'text/plain',
};

async function setUp(t: { teardown(fn: () => unknown): void }, config: Partial<OcrConfig>) {
  const pool = new WorkerPool(
    { minThreads: 1, maxThreads: 1, idleTimeoutMs: 60_000 },
    createLogger({ level: 'silent' }),
  );
  const guard = new OutboundGuard({ allowHosts: [] });
  t.teardown(() => Promise.all([pool.close(), guard.close()]));
  const run = pool.task<OcrTaskInput, ExtractedContent>(new URL('../recognition/ocr-task.ts', import.meta.url));
  const hold = pool.task<number, number>(new URL('./fixtures/hold-thread-task.ts', import.meta.url));
  const service = (c: Partial<OcrConfig>) =>
    new OcrService(
      run,
      { ...base, ...c },
      () => guard,
      () => pool.stats(),
    );
  await service({ timeoutMs: 120_000 }).recognize(note, ['eng']);
  await hold(0);
  return { pool, ocr: service(config), hold };
}

test('a document that waits in the queue longer than timeoutMs is not timed out: its limit starts when a thread takes it', async (t) => {
  t.timeout(60_000);
  const { ocr, hold } = await setUp(t, { timeoutMs: 1000 });
  // Longer than the time limit and the grace after it (1 s + 5 s): the old limit, started before the queue, ended it.
  const held = hold(7000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const began = Date.now();
  const attributes = await ocr.recognize(note, ['eng']);
  t.true(Date.now() - began >= 6000, 'the document did wait for the thread');
  t.is(attributes.text, 'A short note, read as text.');
  t.is(await held, 7000);
});

test('a document that waits longer than queueTimeoutMs for a thread is taken out of the queue and answered 503 with Retry-After', async (t) => {
  t.timeout(60_000);
  const { ocr, hold, pool } = await setUp(t, { queueTimeoutMs: 300, timeoutMs: 120_000 });
  const held = hold(3000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const error = await t.throwsAsync(ocr.recognize(note, ['eng']));
  t.is((error as { status?: number }).status, 503);
  t.is((error as { code?: string }).code, 'ocr_busy');
  t.regex(
    error!.message,
    /^the document waited 300 ms for a worker thread without starting \(plugins\.ocr\.queueTimeoutMs\); try again in \d+ s$/,
  );
  t.regex((error as { headers?: Record<string, string> }).headers?.['Retry-After'] ?? '', /^\d+$/);
  t.is(await held, 3000);
  t.is(pool.stats().queueSize, 0, 'the refused document left the queue');
  const completed = pool.stats().completed;
  t.is((await ocr.recognize(note, ['eng'])).text, 'A short note, read as text.', 'the pool serves the next one');
  t.is(pool.stats().completed, completed + 1, 'only that one ran: the refused document never did');
});

test('Retry-After is the work ahead (documents in progress, or a longer pool queue) shared among the pool threads, times the average running time', (t) => {
  let load: PoolLoad = { maxThreads: 2, queueSize: 0 };
  const notRun = async () => {
    throw new Error('admission runs no task');
  };
  const noGuard = () => {
    throw new Error('admission fetches nothing');
  };
  // Before any document ran, the average running time is taken as one second.
  const ocr = new OcrService(notRun, { ...base, maxPending: 4 }, noGuard, () => load);
  const releases = Array.from({ length: 4 }, () => ocr.admit());
  const retryAfter = () => {
    const error = t.throws(() => ocr.admit()) as unknown as {
      status: number;
      headers: Record<string, string>;
      message: string;
    };
    t.is(error.status, 503);
    t.true(error.message.endsWith(`try again in ${error.headers['Retry-After']} s`), error.message);
    return error.headers['Retry-After'];
  };
  t.is(retryAfter(), '2', 'four documents on two threads: two rounds of one second');
  load = { maxThreads: 1, queueSize: 0 };
  t.is(retryAfter(), '4', 'the same four on one thread');
  load = { maxThreads: 2, queueSize: 9 };
  t.is(retryAfter(), '5', "the pool's queue is longer (other plugins' tasks come first): nine on two threads");
  load = { maxThreads: 2, queueSize: 100_000 };
  t.is(retryAfter(), '120', 'at most two minutes');
  releases[0]!();
  releases[0]!();
  t.is(ocr.inProgress, 3, 'a place is released once');
  t.notThrows(() => ocr.admit());
});

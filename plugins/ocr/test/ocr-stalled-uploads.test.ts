import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { assertTimedOut, heldUpload } from './fixtures/held-upload.js';

// Uploads that start and then stall, from many client addresses (the loopback range 127.0.0.0/8, each socket
// bound to an address of its own) and from one: they take no place of the OCR queue (a place is taken once a
// whole file has arrived), one address holds at most maxTransfersPerClient of them (429 past it), and each is
// ended (408) once it brings less than uploadMinBytesPerSecond over a window.

const WINDOW_MS = 8000;

let vela: TestRuntime;

test.before(async () => {
  vela = await startTestRuntime({
    plugins: ['search', 'ocr'],
    config: {
      plugins: {
        // One place only: a single stalled upload holding it would refuse every other document.
        ocr: {
          maxPending: 1,
          maxTransfersPerClient: 2,
          uploadMinBytesPerSecond: 1024,
          uploadRateWindowMs: WINDOW_MS,
          uploadIdleMs: 60_000,
        },
      },
    },
  });
  // The pool's first task starts a thread and loads the readers (seconds on a busy machine): not measured here.
  await normalUpload();
});
test.after.always(async () => {
  await vela?.stop();
});

/** An upload from `localAddress` that sends the multipart head of its file part and then nothing. */
const stalledUpload = (localAddress: string) => heldUpload(vela, 'scan.png', localAddress);

async function normalUpload(): Promise<{ status: number; body: any; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob(['Minutes of the lighthouse keepers meeting'], { type: 'text/plain' }), 'minutes.txt');
  const began = performance.now();
  const res = await vela.fetch('search', '/api/ocr/file', { method: 'POST', body: form });
  return { status: res.status, body: await res.json(), ms: performance.now() - began };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.serial(
  'twenty stalled uploads from twenty addresses hold no place: a normal upload answers 200, and each stalled one is ended with 408',
  async (t) => {
    t.timeout(60_000);
    const stalled = Array.from({ length: 20 }, (_, i) => stalledUpload(`127.0.0.${i + 2}`));
    t.teardown(() => {
      for (const s of stalled) s.request.destroy();
    });
    await settle(300);
    const normal = await normalUpload();
    t.is(normal.status, 200, JSON.stringify(normal.body));
    t.is(normal.body.text, 'Minutes of the lighthouse keepers meeting');
    t.log(`answered in ${Math.round(normal.ms)} ms`);
    t.deepEqual(
      stalled.map((s) => s.answered()),
      stalled.map(() => null),
      'the stalled uploads were still open when the normal one was answered',
    );

    const answers = await Promise.all(stalled.map((s) => s.answer));
    const tooSlow = `the upload brought less than 1024 bytes a second over ${WINDOW_MS} ms (plugins.ocr.uploadMinBytesPerSecond)`;
    for (const answer of answers) assertTimedOut(t, answer, tooSlow);
    // The counts per address were given back: the same address uploads again, and its (not a PNG) file is read.
    const again = stalledUpload('127.0.0.2');
    t.teardown(() => again.request.destroy());
    again.request.end('Minutes\r\n--stall--\r\n');
    const answer = await again.answer;
    t.is(answer.status, 422, answer.body);
    t.is(JSON.parse(answer.body).error, 'unprocessable_document');
  },
);

test.serial(
  'one address holds at most maxTransfersPerClient uploads: past it 429 with Retry-After, at once; other addresses are served',
  async (t) => {
    t.timeout(60_000);
    const held = [stalledUpload('127.0.0.40'), stalledUpload('127.0.0.40')];
    t.teardown(() => {
      for (const s of held) s.request.destroy();
    });
    await settle(300);
    const began = performance.now();
    const third = stalledUpload('127.0.0.40');
    t.teardown(() => third.request.destroy());
    const refused = await third.answer;
    t.log(`refused in ${Math.round(performance.now() - began)} ms`);
    t.deepEqual(
      held.map((s) => s.answered()),
      [null, null],
      'refused while the two held uploads were still arriving, not once one ended',
    );
    t.is(refused.status, 429);
    t.is(refused.headers['retry-after'], String(WINDOW_MS / 1000));
    t.deepEqual(JSON.parse(refused.body), {
      error: 'too_many_requests',
      message: `this client address already has 2 documents being uploaded or fetched (plugins.ocr.maxTransfersPerClient); try again in ${WINDOW_MS / 1000} s`,
    });
    const normal = await normalUpload();
    t.is(normal.status, 200, JSON.stringify(normal.body));
    t.deepEqual(
      held.map((s) => s.answered()),
      [null, null],
    );
  },
);

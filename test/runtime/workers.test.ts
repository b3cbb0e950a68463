import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { createLogger } from '../../runtime/logger.js';
import { Scheduler } from '../../runtime/scheduler/scheduler.js';
import { WorkerPool } from '../../runtime/workers/worker-pool.js';

const silent = createLogger({ level: 'silent' });
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

test('the worker pool runs TypeScript and JavaScript task files off the main thread', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-tasks-'));
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(
    path.join(dir, 'sum.ts'),
    `import { isMainThread, threadId } from 'node:worker_threads';
    export function sum(values: number[]): { total: number; main: boolean; thread: number } { return { total: values.reduce((a, b) => a + b, 0), main: isMainThread, thread: threadId }; }`,
  );
  writeFileSync(path.join(dir, 'built.js'), 'export default function double(n) { return n * 2; }');
  const pool = new WorkerPool({ minThreads: 0, maxThreads: 2, idleTimeoutMs: 1000 }, silent);
  t.teardown(() => pool.close());
  const sum = pool.task<number[], { total: number; main: boolean; thread: number }>(path.join(dir, 'sum.ts'), 'sum');
  const result = await sum([1, 2, 3]);
  t.is(result.total, 6);
  t.false(result.main);
  t.not(result.thread, 0);
  t.is(await pool.task<number, number>(path.join(dir, 'built.js'))(21), 42, 'a compiled .js task works the same');
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sum([i, i])));
  t.deepEqual(
    results.map((r) => r.total),
    Array.from({ length: 20 }, (_, i) => 2 * i),
  );
  t.true(pool.stats().completed >= 22);
});

test('a task that throws rejects with its error; a missing export is named', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-tasks-'));
  writeFileSync(path.join(dir, 'bad.mjs'), 'export default function () { throw new Error("bad input"); }');
  const pool = new WorkerPool({ minThreads: 0, maxThreads: 1, idleTimeoutMs: 1000 }, silent);
  t.teardown(() => pool.close());
  await t.throwsAsync(pool.run(path.join(dir, 'bad.mjs'), 'default', null), { message: 'bad input' });
  await t.throwsAsync(pool.run(path.join(dir, 'bad.mjs'), 'nope', null), {
    message: /has no exported function "nope"/,
  });
  await pool.close();
  await t.throwsAsync(pool.run(path.join(dir, 'bad.mjs'), 'default', null), { message: /closed/ });
});

test('a scheduled job never overlaps itself', async (t) => {
  const scheduler = new Scheduler(silent);
  let running = 0;
  let maxConcurrent = 0;
  scheduler.add('slow', '* * * * * *', async () => {
    running += 1;
    maxConcurrent = Math.max(maxConcurrent, running);
    await sleep(150);
    running -= 1;
  });
  const first = scheduler.runNow('slow');
  t.false(await scheduler.runNow('slow'), 'a second run while the first is going is skipped');
  t.true(await first);
  t.is(maxConcurrent, 1);
  const status = scheduler.list()[0]!;
  t.is(status.runs, 1);
  t.is(status.skippedOverlaps, 1);
});

test('scheduled jobs fire on their cron expression and stop cleanly, waiting for a run in flight', async (t) => {
  const scheduler = new Scheduler(silent);
  let finished = 0;
  scheduler.add('tick', '* * * * * *', async () => {
    await sleep(300);
    finished += 1;
  });
  scheduler.start();
  t.truthy(scheduler.list()[0]!.nextRunAt);
  await sleep(2300);
  t.true(scheduler.list()[0]!.runs >= 1);
  await scheduler.stop(2000);
  const after = finished;
  t.is(scheduler.list()[0]!.running, false, 'stop waited for the run in flight');
  await sleep(1200);
  t.is(finished, after, 'no run after stop');
});

test('an invalid cron expression is refused with the job name', (t) => {
  const scheduler = new Scheduler(silent);
  t.throws(() => scheduler.add('broken', 'every minute', () => undefined), {
    message: 'scheduled job "broken" has an invalid cron expression "every minute"',
  });
});

test('a thread holding more than recycleAboveMb after a task is replaced by a fresh one; tasks waiting for it still run', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-tasks-'));
  writeFileSync(
    path.join(dir, 'hold.mjs'),
    `import { threadId } from 'node:worker_threads';
    const held = [];
    let calls = 0;
    // Keeps what it is asked to (MiB) for the thread's life, as a leak or a warm cache would.
    export default function hold(mb) {
      calls += 1;
      if (mb > 0) held.push(Buffer.alloc(mb * 1024 * 1024, 1));
      return { thread: threadId, calls };
    }`,
  );
  const pool = new WorkerPool({ minThreads: 0, maxThreads: 1, idleTimeoutMs: 60_000, recycleAboveMb: 96 }, silent);
  t.teardown(() => pool.close());
  const hold = pool.task<number, { thread: number; calls: number }>(path.join(dir, 'hold.mjs'));
  const first = await hold(0);
  const second = await hold(0);
  t.is(second.thread, first.thread, 'a thread under the threshold is kept');
  t.is(second.calls, 2);
  const large = await hold(160);
  t.is(large.thread, first.thread);
  const after = await hold(0);
  t.not(after.thread, first.thread, 'the thread that held 160 MiB was replaced');
  t.is(after.calls, 1, 'by a fresh thread, with nothing of the old one');
  t.is(pool.stats().recycled, 1);
  t.is(pool.stats().threads, 1);

  // One thread, a large task and two waiting behind it: the replacement takes them (no task is lost or stuck).
  const burst = await Promise.all([hold(160), hold(0), hold(0)]);
  t.is(burst[1]!.thread, burst[2]!.thread);
  t.not(burst[1]!.thread, burst[0]!.thread);
  t.deepEqual(
    burst.map((r) => r.calls),
    [2, 1, 2],
  );
  t.is(pool.stats().recycled, 2);

  // Without a threshold, nothing is replaced.
  const keep = new WorkerPool({ minThreads: 0, maxThreads: 1, idleTimeoutMs: 60_000 }, silent);
  t.teardown(() => keep.close());
  const kept = keep.task<number, { thread: number; calls: number }>(path.join(dir, 'hold.mjs'));
  const a = await kept(160);
  t.is((await kept(0)).thread, a.thread);
  t.is(keep.stats().recycled, 0);
});

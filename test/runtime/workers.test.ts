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
  await t.throwsAsync(pool.run(path.join(dir, 'bad.mjs'), 'nope', null), { message: /has no exported function "nope"/ });
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
  t.throws(() => scheduler.add('broken', 'every minute', () => undefined), { message: 'scheduled job "broken" has an invalid cron expression "every minute"' });
});

import test from 'ava';
import type { Logger } from 'vela/plugin';
import { RunProgress } from '../pipeline/run-progress.js';
import { createSite, postKindSource, runAndWait, startWithKind } from './helpers.js';

function recorder() {
  const lines: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const logger = {
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg }),
  } as unknown as Logger;
  return { logger, lines };
}

test('a progress line says documents done, per second and of how many', (t) => {
  const { logger, lines } = recorder();
  let done = 0;
  const progress = new RunProgress(logger, { source: 'sample', run: 'r1' }, 3000, () => done);
  done = 1200;
  progress.report();
  const [line] = lines;
  t.like(line?.fields, { source: 'sample', run: 'r1', done: 1200, of: 3000, percent: 40 });
  t.is(typeof line?.fields.perSecond, 'number');
  t.regex(line?.msg ?? '', /^indexing sample: 1200 of about 3000 documents, \d+ per second$/);
});

test('on a first run the total is unknown and not made up', (t) => {
  const { logger, lines } = recorder();
  new RunProgress(logger, { source: 'web', run: 'r2' }, 0, () => 7).report();
  t.like(lines[0]?.fields, { done: 7, of: null });
  t.false('percent' in (lines[0]?.fields ?? {}));
  t.regex(lines[0]?.msg ?? '', /^indexing web: 7 documents/);
});

// A kind that reads slowly, so a run lasts several progress intervals whatever the machine's speed.
const SLOW_KIND = `{
  name: 'slow',
  description: 'count documents, one every delayMs',
  settingsSchema: { type: 'object', required: ['count', 'delayMs'], properties: { count: { type: 'integer' }, delayMs: { type: 'integer' } } },
  async *read(ctx) {
    for (let i = 0; i < ctx.source.settings.count; i++) {
      await new Promise((resolve) => setTimeout(resolve, ctx.source.settings.delayMs));
      yield { id: 'slow-' + i, attributes: { title: 'slow document ' + i } };
    }
  },
}`;

test('a real run logs its progress, and a reindex says of about how many', async (t) => {
  const vela = await startWithKind('slow', SLOW_KIND, { connector: { progressMs: 50 } });
  t.teardown(() => vela.stop());
  await createSite(vela, 'Slow');
  const created = await postKindSource(vela, 'slow', 'slow', ['Slow'], { count: 40, delayMs: 10 });
  t.is(created.status, 201);

  const progressOf = (run: { id: string }) =>
    vela.logs.filter((line) => line.run === run.id && String(line.msg).startsWith('indexing slow:'));

  const first = await runAndWait(vela, '/api/v2/connector/index/slow/all', 'slow');
  t.like(first, { status: 'COMPLETED', indexed: 40 });
  const firstLines = progressOf(first);
  t.true(firstLines.length >= 2, `${firstLines.length} progress lines in a run of at least 400 ms`);
  for (const line of firstLines) {
    t.like(line, { source: 'slow', of: null });
    t.regex(String(line.msg), /^indexing slow: \d+ documents, \d+ per second$/, 'a first run does not know the total');
  }
  const done = firstLines.map((line) => line.done as number);
  t.deepEqual(
    done,
    [...done].sort((a, b) => a - b),
    'documents done only grows',
  );
  t.true(done[done.length - 1]! > 0);
  t.true(firstLines.some((line) => (line.perSecond as number) > 0));

  for (const operation of ['index', 'reindex']) {
    const run = await runAndWait(vela, `/api/v2/connector/${operation}/slow/all`, 'slow');
    t.like(run, { status: 'COMPLETED', documents: 40 });
    const lines = progressOf(run);
    t.true(lines.length >= 2, `${operation}: ${lines.length} progress lines`);
    for (const line of lines) {
      t.like(line, { source: 'slow', of: 40 }, operation);
      t.regex(String(line.msg), /^indexing slow: \d+ of about 40 documents, \d+ per second$/, operation);
      t.is(typeof line.percent, 'number');
    }
  }
});

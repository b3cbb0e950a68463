// Site chat with the built-in extractive provider on the seeded Sample site (3,000 Debian packages, as a
// fresh `npm start` has it): the time to the first event (`start`), to the first piece of the answer (the
// first `delta`, the "first token") and to the whole answer (`done`), over HTTP, one question at a time,
// then four clients at once.
//
//   node --import tsx scripts/bench/genai-chat.ts [--questions N]
//
// Prints one JSON line per measurement (see docs/BENCHMARKS.md). Not a test: nothing is asserted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createParser } from 'eventsource-parser';
import { loadConfig } from '../../runtime/config/load-config.js';
import { Runtime } from '../../runtime/lifecycle/runtime.js';
import { packageRoot } from '../../runtime/paths.js';
import { printGoal } from './goal.js';
import { percentile } from './stats.js';

const args = process.argv.slice(2);
const at = args.indexOf('--questions');
const questionCount = at >= 0 ? Number(args[at + 1]) : 300;
const WARMUP = 30;

const round = (n: number) => Math.round(n * 100) / 100;
function summary(measure: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    measure,
    n: times.length,
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1)!),
  };
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Questions a visitor might ask of the Debian packages: built from the words of real package titles. */
function makeQuestions(count: number): string[] {
  const file = path.join(packageRoot, 'plugins', 'connector', 'sample', 'debian-packages.jsonl.gz');
  const titles = gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { title: string }).title);
  const random = rng(20261123);
  const forms = [
    (w: string) => `Which package is a ${w}?`,
    (w: string) => `What can I use for ${w}?`,
    (w: string) => `Is there a ${w} in Debian?`,
    (w: string) => `${w}?`,
  ];
  return Array.from({ length: count }, () => {
    const words = titles[Math.floor(random() * titles.length)]!.toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 3)
      .slice(0, 3)
      .join(' ');
    return forms[Math.floor(random() * forms.length)]!(words || 'text editor');
  });
}

interface Timing {
  firstEventMs: number;
  firstDeltaMs: number;
  doneMs: number;
  sources: number;
}

async function ask(base: string, question: string): Promise<Timing> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/sn/Sample/chat?q=${encodeURIComponent(question)}&_setlocale=en_US`);
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  const timing: Partial<Timing> = {};
  const parser = createParser({
    onEvent(event) {
      const now = performance.now() - t0;
      if (timing.firstEventMs === undefined) timing.firstEventMs = now;
      if (event.event === 'delta' && timing.firstDeltaMs === undefined) timing.firstDeltaMs = now;
      if (event.event === 'done') {
        timing.doneMs = now;
        timing.sources = (JSON.parse(event.data) as { sources: unknown[] }).sources.length;
      }
      if (event.event === 'failed') throw new Error(event.data);
    },
  });
  const decoder = new TextDecoder();
  for await (const bytes of res.body as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(bytes, { stream: true }));
  return timing as Timing;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-bench-genai-'));
  const config = loadConfig({
    env: {},
    overrides: {
      runtime: {
        dataDir,
        logLevel: 'warn',
        admin: { user: 'admin', password: 'bench-password' },
        plugins: ['search', 'genai', 'connector'],
        seed: true,
      },
      services: { search: { port: 0, host: '127.0.0.1' }, connector: { port: 0, host: '127.0.0.1' } },
    },
  });
  const runtime = new Runtime({ config });
  await runtime.start();
  const base = runtime.url('search');
  try {
    // The connector seeds the Sample site on first start; wait until its 3,000 packages are searchable.
    const seeded = performance.now();
    for (;;) {
      const r = await fetch(`${base}/api/sn/Sample/search?q=*&_setlocale=en_US&rows=1`);
      if (r.status === 200 && ((await r.json()) as { queryContext: { count: number } }).queryContext.count >= 3000)
        break;
      if (performance.now() - seeded > 120_000) throw new Error('the sample was not seeded within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const cpus = os.cpus();
    console.log(
      JSON.stringify({
        bench: 'genai-chat',
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus.length,
        cpu: cpus[0]?.model ?? '?',
        loadavg: os.loadavg().map(round),
        site: 'Sample (3,000 Debian packages, seeded by the connector)',
        provider: 'built-in extractive',
        seededMs: Math.round(performance.now() - seeded),
      }),
    );

    const questions = makeQuestions(questionCount + WARMUP);
    for (const q of questions.slice(0, WARMUP)) await ask(base, q);
    const timings: Timing[] = [];
    for (const q of questions.slice(WARMUP)) timings.push(await ask(base, q));
    console.log(
      JSON.stringify({
        ...summary(
          'first event (start), one client',
          timings.map((t) => t.firstEventMs),
        ),
      }),
    );
    const firstToken = summary(
      'first token (first delta), one client',
      timings.map((t) => t.firstDeltaMs),
    );
    console.log(JSON.stringify(firstToken));
    printGoal('site chat first token p50 (ms), built-in provider', firstToken.p50Ms, '<', 50);
    console.log(
      JSON.stringify({
        ...summary(
          'whole answer (done), one client',
          timings.map((t) => t.doneMs),
        ),
        avgSources: round(timings.reduce((s, t) => s + t.sources, 0) / timings.length),
      }),
    );

    // Four clients at once (the built-in instance answers 16 at a time by default).
    const parallel: Timing[] = [];
    const queue = questions.slice(WARMUP);
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let q = queue.shift(); q !== undefined; q = queue.shift()) parallel.push(await ask(base, q));
      }),
    );
    console.log(
      JSON.stringify(
        summary(
          'first token (first delta), 4 clients',
          parallel.map((t) => t.firstDeltaMs),
        ),
      ),
    );
    console.log(
      JSON.stringify(
        summary(
          'whole answer (done), 4 clients',
          parallel.map((t) => t.doneMs),
        ),
      ),
    );
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

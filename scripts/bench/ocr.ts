// OCR throughput and accuracy: the same images of known text recognized by Vela's warm worker pool (the
// @vela/extraction task on piscina, tesseract.js kept warm per thread) and by Debian's `tesseract` command
// run once per image, in one run. Accuracy is the share of characters read right (1 - edit distance /
// length of the known text, whitespace normalized).
//
//   node --import tsx scripts/bench/ocr.ts [--images N] [--threads N] [--rounds N]
//
// The machine is shared: each round runs the three systems in a rotated order, and each figure is the median
// over the rounds, so a burst of load elsewhere does not land on one system only.
//
// Needs the `tesseract` program (apt-get install -y tesseract-ocr tesseract-ocr-eng). Prints one JSON line per
// system and a ratio line (see docs/BENCHMARKS.md, "OCR").
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { createPooledExtract, EXTRACT_TASK_FILE, type ExtractedContent, type ExtractInput } from '@vela/extraction';
import { createLogger } from '../../runtime/logger.js';
import { WorkerPool } from '../../runtime/workers/worker-pool.js';
import { median } from './stats.js';

const run = promisify(execFile);
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const IMAGES = option('--images', 24);
const ROUNDS = option('--rounds', 3);
const THREADS = option('--threads', Math.min(2, os.availableParallelism()));

// A seeded generator, so every run draws the same texts.
let seed = 20261123;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const WORDS =
  'invoice report search index connector gateway quarterly revenue customer delivery address total amount payment order shipment contract signed meeting minutes agenda budget forecast region north south east west product service support ticket number date march april account balance'.split(
    ' ',
  );
const line = () => {
  const words = Array.from({ length: 5 + Math.floor(random() * 3) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')} ${Math.floor(random() * 9000) + 1000}`;
};

/** An image of three lines of known text, as a scanner at about 200 dpi would give a short paragraph. */
async function render(lines: string[]): Promise<Buffer> {
  const canvas = createCanvas(1400, 260);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 1400, 260);
  g.fillStyle = '#000000';
  g.font = '36px sans-serif';
  lines.forEach((text, i) => {
    g.fillText(text, 40, 70 + i * 70);
  });
  return canvas.encode('png');
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function characterAccuracy(expected: string, actual: string): number {
  const a = expected.replace(/\s+/g, ' ').trim();
  const b = actual.replace(/\s+/g, ' ').trim();
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return Math.max(0, 1 - previous[b.length]! / Math.max(1, a.length));
}

/** Run `work` over the items with at most `concurrency` at once; the wall time of the whole. */
async function timed<T>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<string>,
): Promise<{ ms: number; texts: string[] }> {
  const texts: string[] = new Array(items.length);
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        texts[index] = await work(items[index]!, index);
      }
    }),
  );
  return { ms: performance.now() - began, texts };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-ocr-bench-'));
  try {
    const truth = Array.from({ length: IMAGES }, () => [line(), line(), line()]);
    const images = await Promise.all(truth.map((lines) => render(lines)));
    const files = images.map((bytes, i) => {
      const file = path.join(dir, `image-${i}.png`);
      writeFileSync(file, bytes);
      return file;
    });
    const expected = truth.map((lines) => lines.join('\n'));
    const accuracyOf = (texts: string[]) =>
      texts.reduce((sum, text, i) => sum + characterAccuracy(expected[i]!, text), 0) / texts.length;
    const { version } = { version: (await run('tesseract', ['--version'])).stdout.split('\n')[0] };
    console.log(
      JSON.stringify({
        bench: 'ocr',
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.availableParallelism(),
        cpu: os.cpus()[0]?.model,
        loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
        images: IMAGES,
        pixels: '1400x260',
        threads: THREADS,
        tesseract: version,
      }),
    );

    // Vela: the runtime's worker pool running the extraction task; warmed with one image per thread first.
    const pool = new WorkerPool(
      { minThreads: THREADS, maxThreads: THREADS, idleTimeoutMs: 600_000 },
      createLogger({ level: 'silent' }),
    );
    const extract = createPooledExtract(pool.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE));
    const warmBegan = performance.now();
    await Promise.all(images.slice(0, THREADS).map((bytes) => extract({ bytes, contentType: 'image/png' })));
    const warmUpMs = Math.round(performance.now() - warmBegan);
    // The command line, once per image: one at a time with its own threads, and THREADS at a time with one thread each.
    const cli = (concurrency: number, env: NodeJS.ProcessEnv) => () =>
      timed(
        files,
        concurrency,
        async (file) => (await run('tesseract', [file, '-', '-l', 'eng'], { env: { ...process.env, ...env } })).stdout,
      );
    const systems: Array<{ name: string; run: () => Promise<{ ms: number; texts: string[] }> }> = [
      {
        name: 'vela-warm-pool',
        run: () =>
          timed(images, THREADS * 2, async (bytes) => (await extract({ bytes, contentType: 'image/png' })).text),
      },
      { name: 'tesseract-cli-one-at-a-time', run: cli(1, {}) },
      { name: `tesseract-cli-${THREADS}-at-a-time`, run: cli(THREADS, { OMP_THREAD_LIMIT: '1' }) },
    ];
    const results = new Map(systems.map((s) => [s.name, [] as Array<{ imagesPerSecond: number; accuracy: number }>]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < systems.length; k++) {
        const system = systems[(round + k) % systems.length]!;
        const { ms, texts } = await system.run();
        const measured = { imagesPerSecond: (IMAGES / ms) * 1000, accuracy: accuracyOf(texts) };
        results.get(system.name)!.push(measured);
        console.log(
          JSON.stringify({
            round,
            system: system.name,
            ms: Math.round(ms),
            imagesPerSecond: round2(measured.imagesPerSecond),
            loadavg: os.loadavg()[0],
          }),
        );
      }
    }
    await pool.close();
    const lines = systems.map(({ name }) => {
      const rounds = results.get(name)!;
      return {
        system: name,
        imagesPerSecond: round2(median(rounds.map((r) => r.imagesPerSecond))),
        accuracy: Math.round(median(rounds.map((r) => r.accuracy)) * 10000) / 10000,
        ...(name === 'vela-warm-pool' ? { warmUpMs } : {}),
      };
    });
    for (const l of lines) console.log(JSON.stringify(l));
    const [vela, ...clis] = lines;
    const ratio = (against: (typeof lines)[number]) => ({
      against: against.system,
      throughput: round2(vela!.imagesPerSecond / against.imagesPerSecond),
      accuracyDifference: Math.round((vela!.accuracy - against.accuracy) * 10000) / 10000,
    });
    console.log(
      JSON.stringify({
        ratio: 'vela / command line (medians)',
        ...Object.fromEntries(clis.map((c) => [c.system, ratio(c)])),
        loadavgAfter: os.loadavg().map(round2),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

// npm run bench: every benchmark, one after the other (never side by side: each measures ratios against a
// peer in its own run, and two at once would share the cores), then one table of every goal line they
// printed and whether it holds. Each benchmark's own lines go to bench-results/<name>.jsonl.
//
//   npm run bench [-- --only search-service,gateway-proxy] [-- --corpus path/to/debian.jsonl.gz]
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../runtime/paths.js';
import type { GoalLine } from './goal.js';

/** In the order they run; the corpus ones take the corpus path as their first argument. */
const BENCHMARKS: Array<{ name: string; corpus: boolean }> = [
  { name: 'search-engine', corpus: true },
  { name: 'autocomplete', corpus: true },
  { name: 'search-service', corpus: true },
  { name: 'relevance', corpus: true },
  { name: 'semantic', corpus: true },
  { name: 'search-http-parts', corpus: true },
  { name: 'search-workers', corpus: true },
  { name: 'connector-index', corpus: true },
  { name: 'gateway-proxy', corpus: false },
  { name: 'propagation', corpus: false },
  { name: 'genai-chat', corpus: false },
  { name: 'ocr', corpus: false },
  { name: 'ocr-bombs', corpus: false },
];

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const only = option('--only')?.split(',');
const corpus = path.resolve(option('--corpus') ?? path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'));
const outDir = path.join(packageRoot, 'bench-results');

function isGoal(value: unknown): value is GoalLine {
  return typeof value === 'object' && value !== null && 'goal' in value && 'holds' in value;
}

/** Runs one benchmark in its own process; resolves to its goal lines and its exit code. */
function run(name: string, withCorpus: boolean): Promise<{ goals: GoalLine[]; code: number }> {
  const file = path.join(packageRoot, 'scripts', 'bench', `${name}.ts`);
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', file, ...(withCorpus ? [corpus] : [])], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const log = createWriteStream(path.join(outDir, `${name}.jsonl`));
  const goals: GoalLine[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    log.write(chunk);
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const parsed: unknown = JSON.parse(line);
        if (isGoal(parsed)) goals.push(parsed);
      } catch {
        // not a JSON line: progress text
      }
    }
  });
  return new Promise((resolve) => child.on('close', (code) => log.end(() => resolve({ goals, code: code ?? 1 }))));
}

mkdirSync(outDir, { recursive: true });
console.log(
  JSON.stringify({
    bench: 'all',
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
  }),
);
const rows: Array<GoalLine & { bench: string }> = [];
const failed: string[] = [];
for (const { name, corpus: withCorpus } of BENCHMARKS) {
  if (only && !only.includes(name)) continue;
  console.log(`\n== ${name}`);
  const { goals, code } = await run(name, withCorpus);
  if (code !== 0) failed.push(name);
  for (const goal of goals) rows.push({ bench: name, ...goal });
}

const width = Math.max(...rows.map((r) => r.goal.length), 4);
console.log(`\n${'goal'.padEnd(width)}  ${'value'.padStart(9)}  ${'target'.padEnd(8)}  holds   benchmark`);
for (const r of rows)
  console.log(
    `${r.goal.padEnd(width)}  ${String(r.value).padStart(9)}  ${r.target.padEnd(8)}  ${r.holds ? 'yes' : 'NO '}     ${r.bench}`,
  );
console.log(
  `\n${rows.filter((r) => r.holds).length} of ${rows.length} goals hold${failed.length ? `; benchmarks that failed to run: ${failed.join(', ')}` : ''}`,
);
process.exitCode = failed.length > 0 ? 1 : 0;

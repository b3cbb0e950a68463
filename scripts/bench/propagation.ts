// Change propagation between two processes on one PostgreSQL: the delays the propagation tests
// measure, judged against their goals here rather than in the tests. The tests run as they do in the suite (two
// child runtimes each, the polls off, seven rounds), alone on the machine, and report their delays to a file.
//
//   node --import tsx scripts/bench/propagation.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../runtime/paths.js';
import { printGoal } from './goal.js';

const TESTS = ['plugins/gateway/test/propagation.test.ts', 'plugins/search/test/propagation.test.ts'];
/** measure (as the tests report it) → the goal line's name and its target in ms. */
const GOALS: Record<string, { goal: string; targetMs: number }> = {
  'revocation refused on the other process': {
    goal: 'gateway: a revocation refused on another process, median ms',
    targetMs: 100,
  },
  'import searchable on the other process': {
    goal: 'search: an import searchable on another process, median ms',
    targetMs: 250,
  },
};

console.log(
  JSON.stringify({
    bench: 'propagation',
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
  }),
);
const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-propagation-'));
const file = path.join(dir, 'delays.jsonl');
try {
  // One test file at a time: the two would otherwise share the cores.
  const code = await new Promise<number>((resolve) => {
    const ava = spawn(
      process.execPath,
      [path.join(packageRoot, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), '--concurrency', '1', ...TESTS],
      {
        cwd: packageRoot,
        env: { ...process.env, VELA_DELAYS_FILE: file, VELA_REQUIRE_POSTGRES: '1' },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    ava.on('close', (status) => resolve(status ?? 1));
  });
  const reports = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { measure: string; delaysMs: number[]; medianMs: number })
    : [];
  for (const report of reports)
    console.log(
      JSON.stringify({
        system: report.measure,
        delaysMs: report.delaysMs.map((ms) => Math.round(ms * 10) / 10),
        medianMs: report.medianMs,
      }),
    );
  for (const [measure, { goal, targetMs }] of Object.entries(GOALS)) {
    const report = reports.find((r) => r.measure === measure);
    if (!report) throw new Error(`the tests reported no "${measure}" (ava exited with ${code})`);
    printGoal(goal, report.medianMs, '<=', targetMs);
  }
  if (code !== 0) process.exitCode = code;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

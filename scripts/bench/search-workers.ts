// Search throughput with workers: the search service of `vela start --workers N --plugins search` beside the
// same service in one process, each on its own data folder with the same slice of the Debian corpus, loaded
// in turn by wrk (a C load generator, `apt-get install wrk`; it cycles through the benchmark's faceted
// queries) so that the load generator takes little of the cores the workers share.
//
//   node --import tsx scripts/bench/search-workers.ts [corpus.jsonl.gz]   # BENCH_DOCS=20000 BENCH_WORKERS=2
//                                                                          # BENCH_ROUNDS=3 BENCH_SECONDS=5
//
// Prints one JSON line per system (its median round, and the CPU in cores its processes used in it) and a
// ratio line. Without wrk it says so and exits: autocannon in this process would share the cores measured.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../runtime/paths.js';
import { type ChildRuntime, childEnv, startChildRuntime } from '../../runtime/testing/child-runtime.js';
import { childPids, machineCpu, pidOfPort, procCpu } from './process-cpu.js';
import { debianSiteFields, loadCorpus, makeQueries } from './search-corpus.js';
import { hasWrk, startVelaWorkers, wrk } from './vela-workers.js';

const corpusFile = path.resolve(process.argv[2] ?? path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'));
const DOCS = Number(process.env.BENCH_DOCS ?? 20_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BATCH = 5_000;
const auth = {
  authorization: `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`,
  'content-type': 'application/json',
};

function pidOf(base: string): number {
  const pid = pidOfPort(Number(new URL(base).port));
  if (pid === null) throw new Error(`no process listens on ${base}`);
  return pid;
}

/** CPU seconds of a process and of each of its children (cluster workers). */
const cpuSeconds = (pid: number): number[] => [pid, ...childPids(pid)].map((p) => procCpu(p));

async function load(base: string, documents: ReturnType<typeof loadCorpus>, expected: number): Promise<void> {
  const created = await fetch(`${base}/api/sn`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'Debian',
      fields: debianSiteFields('body'),
      defaultTitleField: 'title',
      defaultTextField: 'body',
      defaultDescriptionField: 'body',
      defaultURLField: null,
    }),
  });
  if (created.status !== 201) throw new Error(`site: ${await created.text()}`);
  for (let from = 0; from < documents.length; from += BATCH) {
    const turingDocuments = documents.slice(from, from + BATCH).map((d) => ({
      locale: 'en_US',
      turSNJobAction: 'CREATE',
      siteNames: ['Debian'],
      attributes: { ...d, id: String(d.id) },
    }));
    const last = from + BATCH >= documents.length;
    const r = await fetch(`${base}/api/sn/import${last ? '?wait=true' : ''}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ turingDocuments }),
    });
    if (r.status !== 200) throw new Error(`import: ${await r.text()}`);
  }
  // Every worker must hold the whole index before the load: new connections go round-robin to the workers,
  // so a run of consecutive fresh connections that all see every document has reached each of them.
  const deadline = Date.now() + 120_000;
  let inARow = 0;
  while (inARow < 4 * WORKERS) {
    if (Date.now() > deadline) throw new Error('the workers did not all see the import within 120 s');
    const r = await fetch(`${base}/api/sn/Debian/search?q=*&_setlocale=en_US`, { headers: { connection: 'close' } });
    const count = ((await r.json()) as { queryContext?: { count?: number } }).queryContext?.count ?? 0;
    inARow = count === expected ? inARow + 1 : 0;
    if (inARow === 0) await new Promise((done) => setTimeout(done, 200));
  }
}

/** One wrk run over the query paths (a Lua script cycles through them); requests per second. */
async function runWrk(base: string, script: string, seconds: number): Promise<number> {
  const result = await wrk(['-t', '1', '-c', String(CONNECTIONS), '-d', `${seconds}s`, '-s', script, base]);
  if (result.non2xx > 0) throw new Error(`wrk: ${result.non2xx} answers were not 2xx`);
  return result.reqPerSec;
}

async function main(): Promise<void> {
  if (!hasWrk()) {
    console.error(
      'search-workers needs wrk (apt-get install wrk): a load generator in this Node process would share the cores it measures',
    );
    process.exitCode = 1;
    return;
  }
  const documents = loadCorpus(corpusFile).slice(0, DOCS);
  const queries = makeQueries(documents, 500, 20261122);
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'vela-bench-search-workers-'));
  const children: ChildProcess[] = [];
  let one: ChildRuntime | null = null;
  try {
    const script = path.join(workDir, 'queries.lua');
    const paths = queries.map(
      (q) =>
        `/api/sn/Debian/search?q=${encodeURIComponent(q.text)}&_setlocale=en_US&fq[]=${q.filter.field}:${encodeURIComponent(q.filter.value)}`,
    );
    // JSON strings of URL-encoded paths are valid Lua strings (no backslashes or quotes left in them)
    writeFileSync(
      script,
      `local paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`,
    );
    one = await startChildRuntime(['--plugins', 'search'], childEnv({ VELA_DATA_DIR: path.join(workDir, 'one') }));
    const oneBase = one.urls.search!;
    const many = await startVelaWorkers('search', path.join(workDir, 'many'), WORKERS, children);
    await load(oneBase, documents, documents.length);
    await load(many.base, documents, documents.length);
    console.log(
      JSON.stringify({
        bench: 'search-workers',
        machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
        node: process.version,
        docs: documents.length,
        loadGenerator: 'wrk -t1',
        connections: CONNECTIONS,
        seconds: SECONDS,
        rounds: ROUNDS,
        date: new Date().toISOString(),
      }),
    );
    const systems = [
      { system: 'vela-search', base: oneBase, pid: pidOf(oneBase) },
      { system: `vela-search-workers-${WORKERS}`, base: many.base, pid: many.pid },
    ];
    for (const s of systems) await runWrk(s.base, script, 2); // warm-up: JIT, caches
    // What each system's processes spend with no load at all (timers, change polls), in cores.
    const idle0 = systems.map((s) => cpuSeconds(s.pid));
    await new Promise((done) => setTimeout(done, 3000));
    for (const [i, s] of systems.entries()) {
      const idleCores = cpuSeconds(s.pid).map((c, j) => Math.round(((c - (idle0[i]![j] ?? 0)) / 3) * 100) / 100);
      console.log(JSON.stringify({ system: s.system, idleCores }));
    }
    const rounds = new Map(
      systems.map((s) => [s.system, [] as Array<{ rate: number; cores: number[]; machineBusy: number }>]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of systems) {
        const [cpu0, busy0, t0] = [cpuSeconds(s.pid), machineCpu().busy, performance.now()];
        const rate = await runWrk(s.base, script, SECONDS);
        const wall = (performance.now() - t0) / 1000;
        const cores = (seconds: number) => Math.round((seconds / wall) * 100) / 100;
        const cpu1 = cpuSeconds(s.pid);
        rounds.get(s.system)!.push({
          rate,
          cores: cpu1.map((c, i) => cores(c - (cpu0[i] ?? 0))),
          machineBusy: cores(machineCpu().busy - busy0),
        });
      }
    }
    const medians = systems.map((s) => {
      const results = rounds.get(s.system)!;
      const sorted = [...results].sort((a, b) => a.rate - b.rate);
      const m = sorted[Math.floor(sorted.length / 2)]!;
      console.log(
        JSON.stringify({
          system: s.system,
          reqPerSec: Math.round(m.rate),
          rounds: results.map((r) => Math.round(r.rate)),
          // in cores over the round: the process, or the primary and then each worker
          cpuCores: m.cores,
          machineBusy: m.machineBusy,
          // the system's processes per request: less moved by the machine's other load than req/s
          cpuMsPerRequest: Math.round((m.cores.reduce((a, b) => a + b, 0) / m.rate) * 1e5) / 100,
        }),
      );
      return m.rate;
    });
    console.log(
      JSON.stringify({
        ratio: `search req/s with ${WORKERS} workers / one process`,
        value: Math.round((medians[1]! / medians[0]!) * 100) / 100,
      }),
    );
  } finally {
    await one?.stop();
    for (const child of children) child.kill();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});

// The connector end to end on the Debian corpus: a jsonl source read, checked against its status
// records and sent to the search service until searchable; then the same run again with nothing
// changed. In-process (search plugin in the same runtime) and over HTTP (a connector-only runtime here,
// the search service in a separate `vela start --plugins search` process, as deployed apart), with the
// search service's own import API fed the same documents by this process as the peer (what the
// connector adds on top of a bare import), in batches of the connector's size (--batch, else its default).
//
// node --import tsx scripts/bench/connector-index.ts [corpus.jsonl.gz] [--only in-process|http] [--batch N] [--rounds
// N]
//
// Prints one JSON line per measurement (with the CPU of this process and of the search process, and the
// window to cut a CPU profile to) and ratio lines (see docs/BENCHMARKS.md, "Connector"). To profile the
// search process too: BENCH_SEARCH_NODE_OPTIONS="--require scripts/bench/profile-preload.cjs" (see that file).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import type { RunStats } from '../../plugins/connector/monitoring/run-store.js';
import type { RunCoordinator } from '../../plugins/connector/pipeline/run-coordinator.js';
import { type DeepPartial, loadConfig, type RuntimeConfig } from '../../runtime/config/load-config.js';
import { Runtime } from '../../runtime/lifecycle/runtime.js';
import { packageRoot } from '../../runtime/paths.js';
import { type ChildRuntime, childEnv, startChildRuntime } from '../../runtime/testing/child-runtime.js';
import { printGoal } from './goal.js';
import { childPids, procCpu } from './process-cpu.js';
import { debianSiteFields } from './search-corpus.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : null;
const batchAt = args.indexOf('--batch');
const batchSize = batchAt >= 0 ? Number(args[batchAt + 1]) : undefined;
/**
 * Documents per import request of the peer: the connector's own batch size (--batch, else its default), so
 * the ratio compares like with like: the search service spends CPU per request, so a peer sending four times
 * larger batches than the connector gains about 5% of the ratio from that alone.
 */
const schema = JSON.parse(
  readFileSync(path.join(packageRoot, 'plugins', 'connector', 'config.schema.json'), 'utf8'),
) as {
  properties: { batchSize: { default: number } };
};
const peerBatch = batchSize ?? schema.properties.batchSize.default;
// The values of the flags given are not the corpus (a flag left out is at -1: its "value" is not index 0).
const flagValues = new Set([onlyAt, batchAt, args.indexOf('--rounds')].filter((at) => at >= 0).map((at) => at + 1));
const positional = args.filter((a, i) => !a.startsWith('--') && !flagValues.has(i));
const corpusFile = path.resolve(positional[0] ?? path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'));
const ADMIN = { user: 'admin', password: 'bench-password' };
const adminHeaders = {
  authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`,
  'content-type': 'application/json',
};
const KEY = 'connector-bench-key-0123456789';

const FIELDS = debianSiteFields('text');
const SITE = {
  name: 'Debian',
  fields: FIELDS,
  locales: ['en_US'],
  defaultTextField: 'text',
  defaultDescriptionField: 'text',
  defaultURLField: null,
};
const MAPPING = {
  idField: 'id',
  fields: {
    name: 'name',
    title: 'title',
    text: 'body',
    section: 'section',
    arch: 'arch',
    priority: 'priority',
    tags: 'tags',
    maintainer: 'maintainer',
    version: 'version',
    size: 'size',
  },
};

async function startRuntime(
  plugins: string[],
  dataDir: string,
  connector: Record<string, unknown> = {},
): Promise<Runtime> {
  const overrides: DeepPartial<RuntimeConfig> = {
    runtime: {
      dataDir,
      logLevel: (process.env.VELA_LOG_LEVEL as 'warn') ?? 'warn',
      admin: ADMIN,
      plugins,
      seed: false,
    },
    services: {
      search: { port: 0, host: '127.0.0.1' },
      connector: { port: 0, host: '127.0.0.1' },
      gateway: { port: 0, host: '127.0.0.1' },
    },
    plugins: plugins.includes('connector')
      ? { connector: { apiKeys: [KEY], ...(batchSize ? { batchSize } : {}), ...connector } }
      : {},
  };
  const runtime = new Runtime({ config: loadConfig({ env: {}, overrides }) });
  await runtime.start();
  return runtime;
}

/**
 * A search service in its own process (its own event loop and core), on a free port. BENCH_SEARCH_NODE_OPTIONS
 * becomes its NODE_OPTIONS: `--require <path>/scripts/bench/profile-preload.cjs` profiles it (Node refuses
 * `--cpu-prof` there).
 */
function startSearchProcess(dataDir: string): Promise<ChildRuntime> {
  const env = childEnv({ VELA_ADMIN_PASSWORD: ADMIN.password });
  if (process.env.BENCH_SEARCH_NODE_OPTIONS) env.NODE_OPTIONS = process.env.BENCH_SEARCH_NODE_OPTIONS;
  return startChildRuntime(['--plugins', 'search', '--data-dir', dataDir, '--no-seed'], env);
}

/**
 * CPU time (ms) of this process's child processes (the search process in the HTTP rounds), from
 * /proc/<pid>/stat (utime + stime, in clock ticks of 10 ms); null where there is no /proc.
 */
function childCpuMs(): number | null {
  try {
    return Math.round(childPids(process.pid).reduce((sum, pid) => sum + procCpu(pid), 0) * 1000);
  } catch {
    return null;
  }
}

/** CPU (ms) of this process (the connector in the HTTP rounds, everything in-process) and of the search process. */
interface Cpu {
  thisProcess: number;
  searchChild: number | null;
}

/**
 * CPU of this process and of its children over a stretch of work, and its window on the monotonic clock (µs, for
 * cpu-profile.ts).
 */
function cpuMeter(): () => { cpuMs: Cpu; windowUs: { from: string; to: string } } {
  const from = process.hrtime.bigint() / 1000n;
  const own = process.cpuUsage();
  const child = childCpuMs();
  return () => {
    const used = process.cpuUsage(own);
    const childNow = childCpuMs();
    return {
      cpuMs: {
        thisProcess: Math.round((used.user + used.system) / 1000),
        searchChild: child === null || childNow === null ? null : childNow - child,
      },
      windowUs: { from: String(from), to: String(process.hrtime.bigint() / 1000n) },
    };
  };
}

async function createSite(searchBase: string): Promise<void> {
  const r = await fetch(`${searchBase}/api/sn`, { method: 'POST', headers: adminHeaders, body: JSON.stringify(SITE) });
  if (r.status !== 201) throw new Error(`site: ${await r.text()}`);
}

async function searchableCount(searchBase: string): Promise<number> {
  const r = await fetch(`${searchBase}/api/sn/Debian/search?q=*&_setlocale=en_US&rows=1`);
  return ((await r.json()) as { queryContext: { count: number } }).queryContext.count;
}

/** Two runs of one source through a connector runtime: full, then unchanged. */
async function connectorRuns(
  system: string,
  connector: Runtime,
  searchBase: string,
): Promise<Array<{ stats: RunStats; cpu: Cpu }>> {
  const created = await fetch(`${connector.url('connector')}/api/v2/connector/source`, {
    method: 'POST',
    headers: { key: KEY, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'debian',
      kind: 'jsonl',
      sites: ['Debian'],
      settings: { path: corpusFile, ...MAPPING },
    }),
  });
  if (created.status !== 201) throw new Error(`source: ${await created.text()}`);
  const coordinator = connector.resolve<RunCoordinator>('connector.runs');
  const out: Array<{ stats: RunStats; cpu: Cpu }> = [];
  for (const run of ['full', 'unchanged']) {
    // How long the event loop that serves HTTP was blocked at worst while the run went on.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const t0 = performance.now();
    const meter = cpuMeter();
    const stats = await (await coordinator.trigger('debian', 'INDEX_ALL', 'api')).done;
    const wallMs = performance.now() - t0;
    const cpu = meter();
    loop.disable();
    const eventLoopDelayMs = {
      p50: Math.round(loop.percentile(50) / 1e6),
      p99: Math.round(loop.percentile(99) / 1e6),
      max: Math.round(loop.max / 1e6),
    };
    const searchable = await searchableCount(searchBase);
    console.log(
      JSON.stringify({
        measure: `connector ${run} run`,
        system,
        status: stats.status,
        documents: stats.documentCount,
        indexed: stats.indexed,
        unchanged: stats.unchanged,
        errors: stats.errors,
        searchable,
        wallMs: Math.round(wallMs),
        documentsPerSecond: stats.documentsPerSecond,
        eventLoopDelayMs,
        ...cpu,
        goalMs: run === 'full' ? 15000 : 3000,
      }),
    );
    out.push({ stats, cpu: cpu.cpuMs });
  }
  return out;
}

/** The peer: the same documents through the search service's import API, no connector. */
async function directImport(searchBase: string): Promise<{ ms: number; cpu: Cpu }> {
  const docs = gunzipSync(readFileSync(corpusFile))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const t0 = performance.now();
  const meter = cpuMeter();
  for (let from = 0; from < docs.length; from += peerBatch) {
    const last = from + peerBatch >= docs.length;
    const items = docs.slice(from, from + peerBatch).map(({ body, ...d }) => ({
      locale: 'en_US',
      turSNJobAction: 'CREATE',
      siteNames: ['Debian'],
      attributes: { ...d, text: body, id: String(d.id) },
    }));
    const r = await fetch(`${searchBase}/api/sn/import${last ? '?wait=true' : ''}`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ turingDocuments: items }),
    });
    if (r.status !== 200) throw new Error(`import: ${await r.text()}`);
  }
  const ms = performance.now() - t0;
  const cpu = meter();
  console.log(
    JSON.stringify({
      measure: 'direct import (peer)',
      system: 'search process import API over HTTP, no connector',
      batch: peerBatch,
      documents: await searchableCount(searchBase),
      wallMs: Math.round(ms),
      documentsPerSecond: Math.round(docs.length / (ms / 1000)),
      ...cpu,
    }),
  );
  return { ms, cpu: cpu.cpuMs };
}

const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const medianCpu = (values: Cpu[]) => ({
  thisProcess: median(values.map((c) => c.thisProcess)),
  searchChild: values.some((c) => c.searchChild === null) ? null : median(values.map((c) => c.searchChild!)),
});

type Dir = () => string;

type Runs = Array<{ stats: RunStats; cpu: Cpu }>;

async function inProcessRound(tmp: Dir): Promise<Runs> {
  const runtime = await startRuntime(['search', 'connector'], tmp());
  try {
    await createSite(runtime.url('search'));
    return await connectorRuns('vela connector → search, in-process', runtime, runtime.url('search'));
  } finally {
    await runtime.stop();
  }
}

async function httpRound(tmp: Dir): Promise<Runs> {
  const search = await startSearchProcess(tmp());
  const searchBase = search.urls.search!;
  try {
    await createSite(searchBase);
    const token = await fetch(`${searchBase}/api/dev/token`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ title: 'bench', scopes: ['search', 'import'] }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const connector = await startRuntime(['connector'], tmp(), { search: { url: searchBase, key: token.token } });
    try {
      return await connectorRuns('vela connector → search process, HTTP', connector, searchBase);
    } finally {
      await connector.stop();
    }
  } finally {
    await search.stop();
  }
}

async function peerRound(tmp: Dir): Promise<{ ms: number; cpu: Cpu }> {
  const peer = await startSearchProcess(tmp());
  try {
    await createSite(peer.urls.search!);
    return await directImport(peer.urls.search!);
  } finally {
    await peer.stop();
  }
}

/**
 * The systems take turns, round after round (the machine is shared and noisy: a neighbour's burst then
 * hits one round of each rather than all of one system), and the summary lines give the medians.
 */
async function main(): Promise<void> {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'vela-bench-connector-'));
    dirs.push(d);
    return d;
  };
  const full: Record<string, number[]> = { inProcess: [], http: [], peer: [] };
  const unchanged: Record<string, number[]> = { inProcess: [], http: [] };
  const cpus: Record<string, Cpu[]> = { inProcess: [], http: [], peer: [] };
  let documents = 0;
  try {
    for (let round = 1; round <= rounds; round++) {
      if (only !== 'http') {
        const [f, u] = await inProcessRound(tmp);
        documents = f!.stats.documentCount;
        full.inProcess!.push(f!.stats.durationMs!);
        unchanged.inProcess!.push(u!.stats.durationMs!);
        cpus.inProcess!.push(f!.cpu);
      }
      if (only !== 'in-process') {
        const [f, u] = await httpRound(tmp);
        documents = f!.stats.documentCount;
        full.http!.push(f!.stats.durationMs!);
        unchanged.http!.push(u!.stats.durationMs!);
        cpus.http!.push(f!.cpu);
        const peer = await peerRound(tmp);
        full.peer!.push(Math.round(peer.ms));
        cpus.peer!.push(peer.cpu);
      }
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    }
    for (const [system, values] of Object.entries(full)) {
      if (values.length === 0) continue;
      const docsPerSecond = Math.round(documents / (median(values) / 1000));
      console.log(
        JSON.stringify({
          summary: system,
          rounds: values.length,
          fullRunMedianMs: median(values),
          fullRunsMs: values,
          ...(unchanged[system]
            ? { unchangedMedianMs: median(unchanged[system]!), unchangedMs: unchanged[system] }
            : {}),
          medianDocumentsPerSecond: docsPerSecond,
          // Full runs (the peer: its import): this process (the connector over HTTP, the peer's client) and the search
          // process.
          cpuMedianMs: medianCpu(cpus[system]!),
        }),
      );
    }
    if (full.http!.length > 0) {
      console.log(
        JSON.stringify({
          ratio: 'connector full run over HTTP / direct import over HTTP (medians)',
          value: Math.round((median(full.http!) / median(full.peer!)) * 100) / 100,
        }),
      );
      printGoal('connector full run / bare import (medians, HTTP)', median(full.http!) / median(full.peer!), '<=', 1.1);
    }
    for (const system of ['inProcess', 'http']) {
      if (full[system]!.length > 0)
        console.log(
          JSON.stringify({
            ratio: `${system}: unchanged re-run / full run (medians)`,
            value: Math.round((median(unchanged[system]!) / median(full[system]!)) * 1000) / 1000,
          }),
        );
    }
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();

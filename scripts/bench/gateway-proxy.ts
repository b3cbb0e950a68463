/**
 * Authenticated proxy throughput and added latency: Vela's gateway (bearer token + proxy), in one process
 * and with `vela start --workers 2` (BENCH_WORKERS), against a bare node:http proxy and express-gateway
 * (OAuth2 bearer + proxy), all in front of the same loopback upstream, each in its own process(es), loaded
 * in turn by autocannon in one run.
 *
 *   npx tsx scripts/bench/gateway-proxy.ts   # BENCH_ROUNDS=5 BENCH_SECONDS=5 BENCH_CONNECTIONS=50 by default
 *   npx tsx scripts/bench/gateway-proxy.ts --profile <dir>
 *
 * `--workers-only` runs only the workers comparison below (bare proxy, Vela in one process, Vela with workers).
 *
 * The workers comparison is loaded by wrk (a C load generator, `apt-get install wrk`) when it is installed,
 * the same tool for all three systems: on a 2-core machine every core the load generator takes is one the
 * second worker cannot use, and autocannon (single-threaded Node, in this process) costs about twice wrk's
 * CPU per request, a third to half of what the proxy it loads costs. Without wrk it falls back to
 * autocannon and says so. Each round reports where the CPU went (load generator, upstream, each Vela
 * process, the rest of the machine): on a shared machine the rest often takes more than the systems do.
 *
 * `--profile` runs only the bare proxy and Vela's gateway (one process), each under `node --cpu-prof`, loads
 * each once for BENCH_SECONDS, and prints each main thread's self time by function cut to its load window
 * and divided by the requests served (scripts/bench/cpu-profile.ts); the profiles stay in <dir>.
 *
 * The systems take turns, round after round, and each line reports a system's median round. The goals
 * compare two systems round by round and take the median of those ratios (pairedRatio): on a shared,
 * noisy machine a burst of someone else's work then falls on both systems of a pair. Each line also
 * gives the CPU its process spent per request (from /proc; needs `ss` to find the process), a cost
 * that other load on the machine barely moves.
 *
 * express-gateway (about 700 packages) is not a dependency of Vela: the first run installs it into
 * scripts/bench/.peers/ (git-ignored). Prints one JSON line per system and a ratio line.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildRuntime, childEnv, startChildRuntime, VELA_BIN } from '../../runtime/testing/child-runtime.js';
import { report, summarize } from './cpu-profile.js';
import { printGoal } from './goal.js';
import { childPids, machineCpu, pidOfPort, procCpu } from './process-cpu.js';
import { median } from './stats.js';
import { hasWrk, startVelaWorkers, type WrkResult, wrk } from './vela-workers.js';

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<LoadResult>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;
const here = path.dirname(fileURLToPath(import.meta.url));
const peersDir = path.join(here, '.peers');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EG_VERSION = '1.16.11';
const children: ChildProcess[] = [];
const profileAt = process.argv.indexOf('--profile');
const WORKERS_ONLY = process.argv.includes('--workers-only');
const WRK_THREADS = Number(process.env.BENCH_WRK_THREADS ?? 1);
const PROFILE_DIR = profileAt >= 0 ? path.resolve(process.argv[profileAt + 1] ?? 'bench-profiles') : null;

const UPSTREAM = `
const http = require('node:http');
const body = JSON.stringify({ ok: true, service: 'upstream', n: 12345 });
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;

// The floor: what any Node proxy must do (keep-alive agent, forward method, path, headers, pipe both ways).
const BARE_PROXY = `
const http = require('node:http');
const upstreamPort = Number(process.env.UPSTREAM_PORT);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  up.on('error', () => { res.statusCode = 502; res.end(); });
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => process.exit(0)); // a normal exit, so that --cpu-prof writes its profile
`;

/** Run a node script that prints {"port"} once it listens. */
function startNode(
  code: string,
  env: Record<string, string> = {},
  cwd = process.cwd(),
  execArgv: string[] = [],
): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, '-e', code], {
      env: { ...process.env, ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (line) resolve({ port: (JSON.parse(line) as { port: number }).port, child });
    });
    child.on('exit', (code) => reject(new Error(`a benchmark process exited early (${code})`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

/** `node --cpu-prof bin/vela.mjs start --plugins gateway` (Node 20 refuses --cpu-prof in NODE_OPTIONS). */
function startProfiledRuntime(env: NodeJS.ProcessEnv, profileDir: string): Promise<ChildRuntime> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, VELA_BIN, 'start', '--plugins', 'gateway'],
      {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
      (done) => child.on('close', (code, signal) => done({ code, signal, stdout: '', stderr: '' })),
    );
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"bootTree"'));
      if (!line) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      const tree = (JSON.parse(line) as { bootTree: { services: Array<{ name: string; url: string }> } }).bootTree;
      resolve({
        urls: Object.fromEntries(tree.services.map((s) => [s.name, s.url])),
        plugins: ['gateway'],
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return closed;
        },
        output: () => out,
      });
    };
    child.stdout!.on('data', onData);
    void closed.then((r) => reject(new Error(`vela exited with ${r.code ?? r.signal} before it was ready`)));
  });
}

async function startVela(
  upstreamPort: number,
  dataDir: string,
  workers = 1,
  profileDir: string | null = null,
): Promise<{ url: string; token: string; runtime: ChildRuntime | null; pid: number | null }> {
  let runtime: ChildRuntime | null = null;
  let base: string;
  let pid: number | null;
  if (workers > 1) ({ base, pid } = await startVelaWorkers('gateway', dataDir, workers, children));
  else {
    const env = childEnv({ VELA_DATA_DIR: dataDir });
    runtime = profileDir
      ? await startProfiledRuntime(env, profileDir)
      : await startChildRuntime(['--plugins', 'gateway'], env);
    base = runtime.urls.gateway!;
    pid = pidOfPort(Number(new URL(base).port));
  }
  const auth = {
    authorization: `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`,
    'content-type': 'application/json',
  };
  await json(`${base}/api/v2/mapping`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ context: '/proxy/bench/v1', url: `http://127.0.0.1:${upstreamPort}/v1` }),
  });
  const app = await json<{ apiKey: string; apiSecret: string }>(`${base}/api/v2/app`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'bench' }),
  });
  // An OAuth2-issued token (client credentials), like the one express-gateway checks.
  const token = await json<{ access_token: string }>(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: app.apiKey,
      client_secret: app.apiSecret,
    }).toString(),
  });
  return { url: `${base}/bench/v1/items`, token: token.access_token, runtime, pid };
}

function installExpressGateway(): string {
  const entry = path.join(peersDir, 'node_modules', 'express-gateway');
  if (!existsSync(entry)) {
    mkdirSync(peersDir, { recursive: true });
    writeFileSync(path.join(peersDir, '.gitignore'), '*\n');
    console.error(`installing express-gateway@${EG_VERSION} into ${peersDir} (once)...`);
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', peersDir, `express-gateway@${EG_VERSION}`],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  return entry;
}

async function startExpressGateway(upstreamPort: number, workDir: string): Promise<{ url: string; token: string }> {
  const entry = installExpressGateway();
  const [httpPort, adminPort] = [await freePort(), await freePort()];
  const config = path.join(workDir, 'eg-config');
  mkdirSync(path.join(config, 'models'), { recursive: true });
  cpSync(path.join(entry, 'lib', 'config', 'models'), path.join(config, 'models'), { recursive: true });
  writeFileSync(
    path.join(config, 'gateway.config.yml'),
    `http:
  port: ${httpPort}
  hostname: 127.0.0.1
admin:
  port: ${adminPort}
  host: 127.0.0.1
apiEndpoints:
  bench:
    host: '*'
    paths: ['/bench/v1', '/bench/v1/*']
serviceEndpoints:
  upstream:
    url: 'http://127.0.0.1:${upstreamPort}'
policies:
  - oauth2
  - proxy
pipelines:
  bench:
    apiEndpoints: [bench]
    policies:
      - oauth2:
      - proxy:
          - action:
              serviceEndpoint: upstream
`,
  );
  writeFileSync(
    path.join(config, 'system.config.yml'),
    `db:
  redis:
    emulate: true
    namespace: EG
crypto:
  cipherKey: benchmarkCipherKey
  algorithm: aes256
  saltRounds: 10
session:
  secret: benchmark-session-secret
  resave: false
  saveUninitialized: false
accessTokens:
  timeToExpiry: 7200000
refreshTokens:
  timeToExpiry: 7200000
authorizationCodes:
  timeToExpiry: 300000
`,
  );
  const child = spawn(
    process.execPath,
    ['-e', `require(${JSON.stringify(entry)})().load(${JSON.stringify(config)}).run()`],
    {
      cwd: workDir,
      env: { ...process.env, LOG_LEVEL: 'error', NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  children.push(child);
  const admin = `http://127.0.0.1:${adminPort}`;
  await waitFor(`${admin}/users`);
  const headers = { 'content-type': 'application/json' };
  const user = await json<{ id: string }>(`${admin}/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'bench', firstname: 'Bench', lastname: 'Mark' }),
  });
  const app = await json<{ id: string }>(`${admin}/apps`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ userId: user.id, name: 'bench', redirectUri: 'http://127.0.0.1/cb' }),
  });
  const credential = await json<{ id: string; secret: string }>(`${admin}/credentials`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'oauth2', consumerId: app.id, credential: {} }),
  });
  const token = await json<{ access_token: string }>(`http://127.0.0.1:${httpPort}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credential.id,
      client_secret: credential.secret,
    }).toString(),
  });
  return { url: `http://127.0.0.1:${httpPort}/bench/v1/items`, token: token.access_token };
}

interface Measured {
  system: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  non2xx: number;
  errors: number;
  rounds: number[];
  /** CPU the system's own process spent per request: a cost that other load on the machine does not change. */
  cpuUsPerRequest: number | null;
  /** The same, round by round (in the order of `rounds`). */
  roundCpuUs: Array<number | null>;
}

interface Target {
  system: string;
  url: string;
  token?: string;
}

/** CPU seconds (user + system) a process has used so far, with its child processes (cluster workers). */
function cpuSeconds(pid: number): number {
  return procCpu(pid) + childPids(pid).reduce((sum, child) => sum + procCpu(child), 0);
}

const headersOf = (target: Target) => (target.token ? { authorization: `Bearer ${target.token}` } : undefined);

async function warmUp(target: Target): Promise<void> {
  const check = await fetch(target.url, { headers: headersOf(target) });
  if (check.status !== 200)
    throw new Error(`${target.system} answered ${check.status} before the run: ${await check.text()}`);
  await autocannon({ url: target.url, connections: CONNECTIONS, duration: 2, headers: headersOf(target) }); // JIT, keep-alive pools
}

/**
 * A ratio of two systems measured in the same rounds: the median of the round-by-round ratios. The two
 * systems run back to back within a round, so a burst of someone else's work on the shared machine falls
 * on both of a pair; each system's median round, taken apart, can come from different bursts (one system's
 * rounds halving after the first while its neighbour's do not).
 */
function pairedRatio(numerator: Array<number | null>, denominator: Array<number | null>): number {
  const ratios = numerator.flatMap((n, i) => (n && denominator[i] ? [n / denominator[i]!] : []));
  return ratios.length ? median(ratios) : Number.NaN;
}

/** Every system once per round, in turn; each system's result is its median round (by throughput). */
async function measureAll(targets: Target[]): Promise<Measured[]> {
  const runs = new Map<string, LoadResult[]>(targets.map((t) => [t.system, []]));
  const cpu = new Map<string, { seconds: number; requests: number }>(
    targets.map((t) => [t.system, { seconds: 0, requests: 0 }]),
  );
  const roundCpu = new Map<string, Array<number | null>>(targets.map((t) => [t.system, []]));
  const pids = new Map(targets.map((t) => [t.system, pidOfPort(Number(new URL(t.url).port))]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const pid = pids.get(target.system);
      const before = pid ? cpuSeconds(pid) : 0;
      const result = await autocannon({
        url: target.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: headersOf(target),
      });
      runs.get(target.system)!.push(result);
      const used = cpu.get(target.system)!;
      const seconds = pid ? cpuSeconds(pid) - before : 0;
      used.seconds += seconds;
      used.requests += result.requests.total;
      roundCpu.get(target.system)!.push(pid ? Math.round((seconds / result.requests.total) * 1e7) / 10 : null);
    }
  }
  return targets.map((target) => {
    const results = runs.get(target.system)!;
    const rates = results.map((r) => r.requests.average);
    const r = results.find((x) => x.requests.average === median(rates))!;
    const used = cpu.get(target.system)!;
    const measured = {
      system: target.system,
      reqPerSec: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      meanMs: r.latency.average,
      non2xx: results.reduce((n, x) => n + x.non2xx, 0),
      errors: results.reduce((n, x) => n + x.errors + x.timeouts, 0),
      rounds: rates.map(Math.round),
      cpuUsPerRequest: pids.get(target.system) ? Math.round((used.seconds / used.requests) * 1e6 * 10) / 10 : null,
      roundCpuUs: roundCpu.get(target.system)!,
    };
    console.log(JSON.stringify(measured));
    return measured;
  });
}

function runWrk(target: Target, seconds: number): Promise<WrkResult> {
  const args = ['-t', String(WRK_THREADS), '-c', String(CONNECTIONS), '-d', `${seconds}s`, '--latency'];
  if (target.token) args.push('-H', `authorization: Bearer ${target.token}`);
  return wrk([...args, target.url]);
}

/** utime + stime (and, with `reaped`, cutime + cstime: children already waited for) of a process, in seconds. */
interface WorkersTarget extends Target {
  /** The system's processes: its primary, and (for cluster workers) the primary's children. */
  pid: number;
}

interface WorkersResult {
  reqPerSec: number;
  /** CPU of the system's own processes per request, in µs. */
  cpuUsPerRequest: number;
  /**
   * CPU per request, in µs, of what serves the same request outside the system: the load generator, the upstream, this
   * script.
   */
  othersUsPerRequest: number;
  machineCores: number;
}

/**
 * The workers comparison: bare proxy, Vela in one process and Vela with workers, in turn for ROUNDS rounds,
 * loaded by wrk (or autocannon without it). For each system's median round it prints where the CPU went,
 * in cores (1 = one core busy for the whole round): the load generator, the upstream, the system's own
 * processes, this script, and whatever else ran on the machine meanwhile.
 */
async function measureWorkers(targets: WorkersTarget[], upstreamPid: number): Promise<Map<string, WorkersResult>> {
  // BENCH_LOAD_GENERATOR=autocannon: the old arrangement, to see what it costs (its CPU shows as benchScript)
  const useWrk = process.env.BENCH_LOAD_GENERATOR !== 'autocannon' && hasWrk();
  const tool = useWrk
    ? `wrk -t${WRK_THREADS}`
    : `autocannon (in this process${process.env.BENCH_LOAD_GENERATOR === 'autocannon' ? '' : ': wrk is not installed'})`;
  console.log(
    JSON.stringify({
      workersComparison: { loadGenerator: tool, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS },
    }),
  );
  const rounds = new Map<string, Array<WrkResult & { cpu: Record<string, number>; cpuUsPerRequest: number }>>(
    targets.map((t) => [t.system, []]),
  );
  for (const target of targets) {
    if (useWrk) await runWrk(target, 2);
    else await warmUp(target);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const processes = [target.pid, ...childPids(target.pid)];
      const before = {
        system: processes.map((p) => procCpu(p)),
        upstream: procCpu(upstreamPid),
        self: procCpu(process.pid),
        reaped: procCpu(process.pid, true) - procCpu(process.pid),
        machine: machineCpu(),
      };
      const t0 = performance.now();
      let result: WrkResult;
      if (useWrk) result = await runWrk(target, SECONDS);
      else {
        const r = await autocannon({
          url: target.url,
          connections: CONNECTIONS,
          duration: SECONDS,
          headers: headersOf(target),
        });
        result = {
          reqPerSec: r.requests.average,
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
        };
      }
      const wall = (performance.now() - t0) / 1000;
      const machine = machineCpu();
      const cores = (seconds: number) => Math.round((seconds / wall) * 100) / 100;
      const system = processes.map((p, i) => procCpu(p) - before.system[i]!);
      const loadGenerator = useWrk ? procCpu(process.pid, true) - procCpu(process.pid) - before.reaped : 0;
      const self = procCpu(process.pid) - before.self;
      const upstream = procCpu(upstreamPid) - before.upstream;
      const busy = machine.busy - before.machine.busy;
      const systemSeconds = system.reduce((a, b) => a + b, 0);
      const cpu: Record<string, number> = {
        ...(useWrk ? { wrk: cores(loadGenerator) } : {}),
        benchScript: cores(self),
        upstream: cores(upstream),
        ...Object.fromEntries(
          system.map((s, i) => [i === 0 ? (processes.length > 1 ? 'primary' : 'system') : `worker${i}`, cores(s)]),
        ),
        everythingElse: cores(busy - loadGenerator - self - upstream - systemSeconds),
        machineBusy: cores(busy),
        machineCores: Math.round((machine.total - before.machine.total) / wall),
      };
      rounds
        .get(target.system)!
        .push({ ...result, cpu, cpuUsPerRequest: Math.round((systemSeconds / (result.reqPerSec * wall)) * 1e7) / 10 });
    }
  }
  const out = new Map<string, WorkersResult>();
  for (const target of targets) {
    const results = rounds.get(target.system)!;
    const rates = results.map((r) => r.reqPerSec);
    const r = results.find((x) => x.reqPerSec === median(rates))!;
    console.log(
      JSON.stringify({
        system: target.system,
        loadGenerator: useWrk ? 'wrk' : 'autocannon',
        reqPerSec: Math.round(r.reqPerSec),
        p50Ms: Math.round(r.p50Ms * 100) / 100,
        p99Ms: Math.round(r.p99Ms * 100) / 100,
        non2xx: results.reduce((n, x) => n + x.non2xx, 0),
        errors: results.reduce((n, x) => n + x.errors, 0),
        rounds: rates.map(Math.round),
        cpuCores: r.cpu,
        // the system's own processes, per request: less moved by the machine's other load than req/s
        cpuUsPerRequest: r.cpuUsPerRequest,
      }),
    );
    const others = (r.cpu.wrk ?? 0) + (r.cpu.benchScript ?? 0) + (r.cpu.upstream ?? 0);
    out.set(target.system, {
      reqPerSec: r.reqPerSec,
      cpuUsPerRequest: r.cpuUsPerRequest,
      othersUsPerRequest: Math.round((others / r.reqPerSec) * 1e7) / 10,
      machineCores: r.cpu.machineCores ?? os.cpus().length,
    });
  }
  return out;
}

/**
 * The most the workers can gain over one process on this machine, from the CPU each request costs: N workers
 * serve at most N / g requests a second (g: a worker's CPU per request), and all the machine's C cores at
 * most C / (g + o) (o: the load generator's, the upstream's and this script's CPU per request, which share the
 * cores). Over the one process's measured rate, that is the ratio no scheduling can beat.
 */
function workersBound(
  one: WorkersResult,
  workers: WorkersResult,
  count: number,
): { reqPerSec: number; vsOneProcess: number } {
  const perSecond = (us: number) => 1e6 / us;
  const byWorkers = count * perSecond(workers.cpuUsPerRequest);
  const byMachine = workers.machineCores * perSecond(workers.cpuUsPerRequest + workers.othersUsPerRequest);
  const reqPerSec = Math.min(byWorkers, byMachine);
  return { reqPerSec: Math.round(reqPerSec), vsOneProcess: Math.round((reqPerSec / one.reqPerSec) * 100) / 100 };
}

/** The main thread's profile in a --cpu-prof-dir (named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile). */
function mainThreadProfile(dir: string): string {
  const file = readdirSync(dir).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error(`no main-thread profile in ${dir}`);
  return path.join(dir, file);
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** --profile: the bare proxy and Vela under --cpu-prof, each loaded once; their profiles cut to the load window. */
async function profile(dir: string): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'vela-bench-gateway-'));
  const [bareDir, velaDir] = [path.join(dir, 'bare'), path.join(dir, 'vela')];
  for (const d of [bareDir, velaDir]) {
    rmSync(d, { recursive: true, force: true });
    mkdirSync(d, { recursive: true });
  }
  let vela: ChildRuntime | null = null;
  try {
    const upstream = await startNode(UPSTREAM);
    const bare = await startNode(BARE_PROXY, { UPSTREAM_PORT: String(upstream.port) }, process.cwd(), [
      '--cpu-prof',
      `--cpu-prof-dir=${bareDir}`,
    ]);
    const velaRun = await startVela(upstream.port, path.join(workDir, 'vela-data'), 1, velaDir);
    vela = velaRun.runtime;
    const targets: Array<Target & { dir: string; stop: () => Promise<unknown> }> = [
      {
        system: 'bare-node-http-proxy',
        url: `http://127.0.0.1:${bare.port}/v1/items`,
        dir: bareDir,
        stop: () =>
          new Promise((done) => {
            if (bare.child.exitCode !== null) return done(null);
            bare.child.once('exit', done);
            bare.child.kill('SIGTERM');
          }),
      },
      { system: 'vela-gateway', url: velaRun.url, token: velaRun.token, dir: velaDir, stop: () => vela!.stop() },
    ];
    const windows: Array<{ from: number; to: number; requests: number }> = [];
    for (const target of targets) {
      await warmUp(target);
      const from = nowUs();
      const result = await autocannon({
        url: target.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: headersOf(target),
      });
      windows.push({ from, to: nowUs(), requests: result.requests.total });
      writeFileSync(path.join(target.dir, 'window.json'), JSON.stringify(windows.at(-1)));
      console.log(
        JSON.stringify({
          system: target.system,
          reqPerSec: Math.round(result.requests.average),
          requests: result.requests.total,
        }),
      );
    }
    for (const target of targets) await target.stop();
    vela = null;
    targets.forEach((target, i) => {
      const { from, to, requests } = windows[i]!;
      const file = mainThreadProfile(target.dir);
      console.log(
        `\n== ${target.system} (${path.relative(process.cwd(), file)})\n${report(summarize(JSON.parse(readFileSync(file, 'utf8')), from, to), requests, 40)}`,
      );
    });
  } finally {
    await vela?.stop();
    for (const child of children) child.kill();
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'vela-bench-gateway-'));
  let vela: ChildRuntime | null = null;
  try {
    const upstream = await startNode(UPSTREAM);
    const bare = await startNode(BARE_PROXY, { UPSTREAM_PORT: String(upstream.port) });
    const velaRun = await startVela(upstream.port, path.join(workDir, 'vela-data'));
    vela = velaRun.runtime;
    // The same gateway with worker processes, on its own data folder (SQLite; the workers share it).
    const velaWorkers = await startVela(upstream.port, path.join(workDir, 'vela-workers-data'), WORKERS);
    console.log(
      JSON.stringify({
        machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
        node: process.version,
        connections: CONNECTIONS,
        seconds: SECONDS,
        rounds: ROUNDS,
        date: new Date().toISOString(),
      }),
    );

    const workersSystem = `vela-gateway-workers-${WORKERS}`;
    const workersTargets: WorkersTarget[] = [
      { system: 'bare-node-http-proxy', url: `http://127.0.0.1:${bare.port}/v1/items`, pid: bare.child.pid! },
      { system: 'vela-gateway', url: velaRun.url, token: velaRun.token, pid: velaRun.pid! },
      { system: workersSystem, url: velaWorkers.url, token: velaWorkers.token, pid: velaWorkers.pid! },
    ];
    // The workers comparison first, by its own load generator (see the header), then the rest by autocannon.
    const compared = await measureWorkers(workersTargets, upstream.child.pid!);
    const [bareW, oneW, workersW] = workersTargets.map((t) => compared.get(t.system)!.reqPerSec) as [
      number,
      number,
      number,
    ];
    const bound = workersBound(compared.get(workersTargets[1]!.system)!, compared.get(workersSystem)!, WORKERS);
    const cpu = os.cpus()[0]?.model ?? '?';
    console.log(
      JSON.stringify({
        workers: {
          count: WORKERS,
          vsOneProcess: Math.round((workersW / oneW) * 100) / 100,
          vsBare: Math.round((workersW / bareW) * 100) / 100,
          // the ceiling the CPU per request sets on this machine (workersBound), and how much of it the workers reach
          bound,
          ofBound: Math.round((workersW / bound.reqPerSec) * 100) / 100,
        },
      }),
    );
    printGoal(
      `gateway req/s with ${WORKERS} workers / one process (${os.cpus().length} × ${cpu})`,
      workersW / oneW,
      '>=',
      1.5,
    );
    if (WORKERS_ONLY) return;

    const eg = await startExpressGateway(upstream.port, workDir);
    const targets: Target[] = [
      { system: 'direct', url: `http://127.0.0.1:${upstream.port}/v1/items` },
      { system: 'bare-node-http-proxy', url: `http://127.0.0.1:${bare.port}/v1/items` },
      { system: 'vela-gateway', url: velaRun.url, token: velaRun.token },
      { system: 'express-gateway', url: eg.url, token: eg.token },
    ];
    for (const target of targets) await warmUp(target);
    const [direct, bareResult, velaResult, egResult] = (await measureAll(targets)) as [
      Measured,
      Measured,
      Measured,
      Measured,
    ];
    const added = (m: Measured) => ({
      addedP50Ms: Math.round((m.p50Ms - direct.p50Ms) * 100) / 100,
      addedP99Ms: Math.round((m.p99Ms - direct.p99Ms) * 100) / 100,
    });
    const round2 = (value: number) => Math.round(value * 100) / 100;
    // The goals compare systems round by round (pairedRatio); each system's median round is printed too.
    const paired = {
      velaVsBare: pairedRatio(velaResult.rounds, bareResult.rounds),
      velaVsExpressGateway: pairedRatio(velaResult.rounds, egResult.rounds),
      cpuVelaOverBare: pairedRatio(velaResult.roundCpuUs, bareResult.roundCpuUs),
      cpuExpressGatewayOverVela: pairedRatio(egResult.roundCpuUs, velaResult.roundCpuUs),
    };
    console.log(
      JSON.stringify({
        ratio: {
          velaVsBare: round2(paired.velaVsBare),
          velaVsExpressGateway: round2(paired.velaVsExpressGateway),
          goals: { velaVsBare: 1, velaVsExpressGateway: 4 },
          ofMedianRounds: {
            velaVsBare: round2(velaResult.reqPerSec / bareResult.reqPerSec),
            velaVsExpressGateway: round2(velaResult.reqPerSec / egResult.reqPerSec),
          },
        },
        // The same comparison by CPU cost per request (bare / Vela): steadier than req/s on a shared machine.
        cpuRatio: {
          velaVsBare: round2(1 / paired.cpuVelaOverBare),
          velaVsExpressGateway: round2(paired.cpuExpressGatewayOverVela),
          overAllRounds: {
            velaVsBare: round2(bareResult.cpuUsPerRequest! / velaResult.cpuUsPerRequest!),
            velaVsExpressGateway: round2(egResult.cpuUsPerRequest! / velaResult.cpuUsPerRequest!),
          },
        },
        addedLatency: { bare: added(bareResult), vela: added(velaResult), expressGateway: added(egResult) },
      }),
    );
    printGoal('gateway req/s / bare node:http proxy', paired.velaVsBare, '>=', 1);
    printGoal('gateway CPU per request / bare node:http proxy', paired.cpuVelaOverBare, '<=', 1);
    printGoal('gateway req/s / express-gateway', paired.velaVsExpressGateway, '>=', 4);
  } finally {
    await vela?.stop();
    for (const child of children) child.kill();
    rmSync(workDir, { recursive: true, force: true });
  }
}

(PROFILE_DIR ? profile(PROFILE_DIR) : main()).catch((error: Error) => {
  console.error(error.stack ?? error.message);
  for (const child of children) child.kill();
  process.exitCode = 1;
});

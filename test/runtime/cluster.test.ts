import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { childEnv, runVela, VELA_BIN } from '../../runtime/sdk/testing.js';

// Worker processes start slowly on a loaded two-core machine: every wait here is generous.
const STARTED_WITHIN_MS = 120_000;
const auth = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

interface Cluster {
  child: ChildProcess;
  output(): string;
  /** The primary's worker processes right now. */
  workers(): number[];
  /** Resolves with the primary's exit code. */
  closed: Promise<number | null>;
  stop(): Promise<number | null>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The primary's children that run vela (not esbuild's service process, say). */
function workersOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)])
      .toString()
      .split('\n')
      .filter((l) => l.includes('vela.mjs'))
      .map((l) => Number.parseInt(l.trim(), 10));
  } catch {
    // ps exits 1 when the process has no children.
    return [];
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `vela start <args>` as a primary with workers; killed (with every worker it started) when the test ends. */
function launch(t: ExecutionContext, args: string[], env: Record<string, string> = {}): Cluster {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-cluster-'));
  const child = spawn(process.execPath, [VELA_BIN, 'start', '--data-dir', dataDir, ...args], {
    env: childEnv({ VELA_LOG_FORMAT: 'json', ...env }),
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d;
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d;
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const seen = new Set<number>();
  const workers = () => {
    const now = workersOf(child.pid!);
    for (const pid of now) seen.add(pid);
    return now;
  };
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await closed;
    for (const pid of seen) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    child,
    output: () => out,
    workers,
    closed,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return closed;
    },
  };
}

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  withinMs = STARTED_WITHIN_MS,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await sleep(50);
  }
}

/**
 * The primary's exit code, or 'still running' past `ms`. The timer is cleared once the primary has exited: left
 * pending, it kept this file's process alive for two minutes after its last test.
 */
async function exitWithin(vela: Cluster, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => {
    timer = setTimeout(resolve, ms, 'still running');
  });
  try {
    return await Promise.race([vela.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URLs from the primary's ready line. */
async function ready(vela: Cluster): Promise<Record<string, string>> {
  let line: string | undefined;
  await until('the primary logging "all workers ready"', () => {
    if (vela.child.exitCode !== null) throw new Error(`vela exited with ${vela.child.exitCode}: ${vela.output()}`);
    line = vela
      .output()
      .split('\n')
      .find((l) => l.includes('"all workers ready"'));
    return !!line;
  });
  return (JSON.parse(line!) as { urls: Record<string, string> }).urls;
}

async function startServer(handler: http.RequestListener): Promise<{ port: number; close(): void }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A mapping to an upstream (`/slow` answers after `slowMs`), an app and a way to get its tokens. */
async function gatewayWithUpstream(t: ExecutionContext, base: string, slowMs = 0) {
  const upstream = await startServer((req, res) => {
    if (req.url?.includes('/slow')) setTimeout(() => res.end('{"slow":true}'), slowMs);
    else res.end('{}');
  });
  t.teardown(() => upstream.close());
  const adminCall = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${base}${pathname}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  t.is(
    (
      await adminCall('POST', '/api/v2/mapping', {
        context: '/proxy/shop/v1',
        url: `http://127.0.0.1:${upstream.port}`,
      })
    ).status,
    201,
  );
  const app = (await adminCall('POST', '/api/v2/app', { name: 'cluster' })).body;
  const token = async () => {
    const res = await fetch(`${base}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: app.apiKey,
        client_secret: app.apiSecret,
      }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  // Fresh connections each time, so the requests spread over the workers.
  const proxied = async (bearer: string, pathname = '/shop/v1/x') => {
    const res = await fetch(`${base}${pathname}`, {
      headers: { authorization: `Bearer ${bearer}`, connection: 'close' },
    });
    await res.text();
    return res.status;
  };
  return { app, token, proxied };
}

test.serial(
  '--workers 2 on SQLite: two processes share the port, a token issued by one is never refused by the other, a revocation reaches both',
  async (t) => {
    t.timeout(STARTED_WITHIN_MS * 2);
    const vela = launch(t, ['--workers', '2', '--plugins', 'gateway', '--no-seed']);
    const base = (await ready(vela)).gateway!;
    t.is(vela.workers().length, 2);
    const { app, token, proxied } = await gatewayWithUpstream(t, base);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const bearer = await token();
      statuses.push(await proxied(bearer), await proxied(bearer));
    }
    t.true(
      statuses.every((s) => s === 200),
      statuses.join(' '),
    );

    const bearer = await token();
    for (let i = 0; i < 4; i++) t.is(await proxied(bearer), 200);
    const revoke = await fetch(`${base}/api/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: bearer, client_id: app.apiKey, client_secret: app.apiSecret }),
    });
    t.is(revoke.status, 200);
    // Relayed through the primary (the gateway's poll is 2 s): both workers refuse it well before that.
    await sleep(300);
    const after: number[] = [];
    for (let i = 0; i < 8; i++) after.push(await proxied(bearer));
    t.deepEqual(after, [401, 401, 401, 401, 401, 401, 401, 401]);
    t.is(await vela.stop(), 0);
  },
);

test.serial(
  'SIGHUP replaces the workers one by one while proxied requests, slow ones included, keep being answered; SIGTERM stops them all',
  async (t) => {
    t.timeout(STARTED_WITHIN_MS * 3);
    const vela = launch(t, ['--workers', '2', '--plugins', 'gateway', '--no-seed']);
    const base = (await ready(vela)).gateway!;
    const before = vela.workers().sort();
    t.is(before.length, 2);
    const { token, proxied } = await gatewayWithUpstream(t, base, 1500);
    const bearer = await token();

    let stop = false;
    // Stopped however the test ends, so no loop outlives it.
    t.teardown(() => {
      stop = true;
    });
    const failures: string[] = [];
    const answered = { health: 0, proxied: 0, slow: 0 };
    const loop = async (kind: keyof typeof answered, call: () => Promise<number>) => {
      while (!stop) {
        try {
          const status = await call();
          if (status === 200) answered[kind] += 1;
          else failures.push(`${kind}: ${status}`);
        } catch (error) {
          failures.push(`${kind}: ${String((error as Error).cause ?? error)}`);
        }
      }
    };
    const health = async () => {
      const res = await fetch(`${base}/health`);
      await res.text();
      return res.status;
    };
    const loops = [
      loop('health', health),
      loop('proxied', () => proxied(bearer)),
      loop('proxied', () => proxied(bearer)),
      // Each one in flight for 1.5 s, so some are in a worker while it is retired.
      loop('slow', () => proxied(bearer, '/shop/v1/slow')),
      loop('slow', () => proxied(bearer, '/shop/v1/slow')),
    ];
    // Counts, not durations: each kind answered before the signal, and again once every worker is new.
    const answeredSince = (mark: typeof answered) =>
      (Object.keys(answered) as Array<keyof typeof answered>).every((k) => answered[k] > mark[k]);
    const zero = { health: 0, proxied: 0, slow: 0 };
    let restarted = zero;
    try {
      await until('every kind of request answered before the signal', () => answeredSince(zero));
      vela.child.kill('SIGHUP');
      await until('the rolling restart', () => vela.output().includes('"every worker restarted"'));
      restarted = { ...answered };
      await until('every kind of request answered by the new workers', () => answeredSince(restarted));
    } finally {
      stop = true;
      await Promise.all(loops);
    }
    const after = vela.workers().sort();
    t.is(after.length, 2);
    t.false(
      after.some((pid) => before.includes(pid)),
      'every worker was replaced',
    );
    // Not one request failed or was refused, the slow ones in flight while their worker retired included.
    t.deepEqual(failures, []);
    t.log(`answered in all: ${JSON.stringify(answered)}; by the time the restart ended: ${JSON.stringify(restarted)}`);
    t.is(await vela.stop(), 0);
  },
);

test.serial(
  'SIGTERM shortly after SIGHUP: the worker still starting is stopped too, and the primary exits',
  async (t) => {
    t.timeout(STARTED_WITHIN_MS * 2);
    const vela = launch(t, ['--workers', '2', '--plugins', 'gateway', '--no-seed']);
    await ready(vela);
    const serving = vela.workers();
    t.is(serving.length, 2);
    vela.child.kill('SIGHUP');
    // The replacement of slot 0 is forked, not ready yet.
    await until('the replacement being forked', () => vela.workers().length === 3, 30_000);
    await sleep(200);
    const all = vela.workers();
    t.false(vela.output().includes('"every worker restarted"'));
    vela.child.kill('SIGTERM');
    const code = await exitWithin(vela, STARTED_WITHIN_MS);
    t.is(code, 0, vela.output().slice(-3000));
    await until('every worker gone', () => all.every((pid) => !isRunning(pid)), 10_000);
    t.false(vela.output().includes('"every worker restarted"'));
  },
);

test.serial('SIGTERM while the workers start: none is left, and the primary exits', async (t) => {
  t.timeout(STARTED_WITHIN_MS * 2);
  const vela = launch(t, ['--workers', '2', '--plugins', 'gateway', '--no-seed']);
  await until('a worker being forked', () => vela.workers().length > 0, 30_000);
  const forked = vela.workers();
  vela.child.kill('SIGTERM');
  const code = await exitWithin(vela, STARTED_WITHIN_MS);
  t.is(code, 0, vela.output().slice(-3000));
  await until('every worker gone', () => forked.every((pid) => !isRunning(pid)), 10_000);
  t.false(vela.output().includes('"all workers ready"'));
});

test.serial(
  '--split-services puts each service in its own processes, and the connector seeds the sample through the search service',
  async (t) => {
    t.timeout(STARTED_WITHIN_MS * 2);
    const vela = launch(t, ['--split-services', '--plugins', 'gateway,search,connector']);
    const urls = await ready(vela);
    t.deepEqual(Object.keys(urls).sort(), ['connector', 'gateway', 'search']);
    t.is(vela.workers().length, 3);
    for (const service of ['gateway', 'search', 'connector'])
      t.is((await fetch(`${urls[service]}/health`)).status, 200, service);
    // Each bootTree line names one service only.
    const trees = vela
      .output()
      .split('\n')
      .filter((l) => l.includes('"bootTree"'))
      .map((l) =>
        (JSON.parse(l) as { bootTree: { services: Array<{ name: string }> } }).bootTree.services.map((s) => s.name),
      );
    t.deepEqual(trees.map((names) => names.join(',')).sort(), ['connector', 'gateway', 'search']);
    // The connector process has no search plugin: it sends the sample to the search service of the cluster.
    let count = 0;
    await until('the sample being searchable', async () => {
      const res = await fetch(`${urls.search}/api/sn/Sample/search?q=*&_setlocale=en_US`);
      count =
        res.status === 200
          ? (((await res.json()) as { queryContext?: { count?: number } }).queryContext?.count ?? 0)
          : 0;
      return count === 3000;
    });
    t.is(count, 3000);
    t.false(vela.output().includes('no search service'));
    t.is(await vela.stop(), 0);
  },
);

test.serial(
  '--workers takes a number from 1 to 64: anything else is a usage error (exit 2), not a failed start',
  async (t) => {
    for (const value of ['abc', '0', '65', '2.5']) {
      const run = await runVela(['start', '--workers', value, '--no-seed']);
      t.is(run.code, 2, `${value}: ${run.stderr}`);
      t.true(run.stderr.startsWith('vela: --workers takes a number from 1 to 64'), run.stderr);
      t.true(run.stderr.includes('Usage: vela'), 'the usage follows');
      t.false(run.stderr.includes('    at '), 'no stack trace');
    }
  },
);

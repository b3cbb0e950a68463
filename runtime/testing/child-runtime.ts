import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecutionContext, TestFn } from 'ava';
import { packageRoot } from '../paths.js';
import { type JsonAnswer, readAnswer } from './call-service.js';
import { postgresReachable, type TestTeardown, testDatabase } from './test-postgres.js';

export const VELA_BIN = path.join(packageRoot, 'bin', 'vela.mjs');

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ChildRuntime {
  /** service name → base URL */
  urls: Record<string, string>;
  plugins: string[];
  /** Send a signal (SIGTERM by default; SIGKILL to simulate a crash) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<ChildRun>;
  /** Everything logged so far (JSON lines). */
  output(): string;
}

const CHILD_ADMIN_PASSWORD = 'child-test-password';

/** The Basic credentials of a child runtime's administrator (the password childEnv sets). */
export const CHILD_ADMIN_AUTH = `Basic ${Buffer.from(`admin:${CHILD_ADMIN_PASSWORD}`).toString('base64')}`;

/** Environment for a child runtime: every service on a free port, a known administrator password. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VELA_GATEWAY_PORT: '0',
    VELA_SEARCH_PORT: '0',
    VELA_CONNECTOR_PORT: '0',
    VELA_ADMIN_PASSWORD: CHILD_ADMIN_PASSWORD,
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  return env;
}

/** Run `vela <args>` to its end; `input` is written to its standard input, which is then closed. */
export function runVela(args: string[], env = childEnv(), cwd = packageRoot, input?: string): Promise<ChildRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VELA_BIN, ...args], { env, cwd });
    if (input !== undefined) {
      // A child that exits without reading (a usage error) closes the pipe: not the caller's failure.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** How long a stopping child may take before it is killed. */
const STOP_PATIENCE_MS = 60_000;
/** How long a starting child may take to log its boot tree before it is killed and its output reported. */
const START_PATIENCE_MS = 180_000;

/** Start `vela start <args>` as a separate process and resolve once its boot tree is logged. */

export function startChildRuntime(args: string[], env = childEnv(), cwd = packageRoot): Promise<ChildRuntime> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VELA_BIN, 'start', ...args], { env, cwd });
    let stdout = '';
    let stderr = '';
    let ready = false;
    const closed = new Promise<ChildRun>((done) =>
      child.on('close', (code, signal) => done({ code, signal, stdout, stderr })),
    );
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    // A start that hangs must fail its test with what the child said, never leave the child (and the test run) waiting.
    const patience = setTimeout(() => {
      if (ready) return;
      child.kill('SIGKILL');
      reject(
        new Error(
          `vela did not finish starting within ${START_PATIENCE_MS} ms; its last output: ${stdout.slice(-3000)} ${stderr.slice(-2000)}`,
        ),
      );
    }, START_PATIENCE_MS);
    patience.unref();
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (ready) return;
      for (const line of stdout.split('\n')) {
        if (!line.includes('"bootTree"')) continue;
        ready = true;
        clearTimeout(patience);
        const tree = (
          JSON.parse(line) as {
            bootTree: { services: Array<{ name: string; url: string; plugins: Array<{ plugin: string }> }> };
          }
        ).bootTree;
        resolve({
          urls: Object.fromEntries(tree.services.map((s) => [s.name, s.url])),
          plugins: tree.services.flatMap((s) => s.plugins.map((p) => p.plugin)),
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            // A stop that hangs must fail its test (exit by SIGKILL), never keep the test run waiting.
            const kill = setTimeout(() => child.kill('SIGKILL'), STOP_PATIENCE_MS);
            return closed.finally(() => clearTimeout(kill));
          },
          output: () => stdout,
        });
        return;
      }
    });
    void closed.then((r) => {
      if (!ready) reject(new Error(`vela exited with ${r.code ?? r.signal} before it was ready: ${r.stderr}`));
    });
  });
}

/**
 * `vela start --config <config> --no-seed <args>` on a data folder of its own, removed once it stopped: a
 * separate process, as one of several sharing a database (`runtime.database.url` in `config`).
 */
export async function startConfiguredChild(
  config: Record<string, unknown>,
  args: string[] = [],
): Promise<ChildRuntime> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-child-'));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const child = await startChildRuntime([
      '--config',
      file,
      '--data-dir',
      path.join(dir, 'data'),
      '--no-seed',
      ...args,
    ]);
    return {
      ...child,
      stop: async (signal) => {
        const run = await child.stop(signal);
        remove();
        return run;
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/**
 * Two processes (startConfiguredChild with `args`) sharing a new test database: `config` says all but the
 * database's URL. Both stop when the test ends.
 */
export async function startSharedChildren(
  t: TestTeardown,
  config: { runtime?: Record<string, unknown>; [key: string]: unknown },
  args: string[] = [],
): Promise<[ChildRuntime, ChildRuntime]> {
  const pg = await testDatabase(t);
  const shared = { ...config, runtime: { ...config.runtime, database: { url: pg.url } } };
  const a = await startConfiguredChild(shared, args);
  t.teardown(async () => {
    await a.stop();
  });
  const b = await startConfiguredChild(shared, args);
  t.teardown(async () => {
    await b.stop();
  });
  return [a, b];
}

/** What sharedDatabaseTest starts: the configuration and `vela start` arguments of both processes. */
export interface SharedChildrenOptions {
  /** All but the database's URL (startSharedChildren). */
  config: { runtime?: Record<string, unknown>; [key: string]: unknown };
  args?: string[];
  /** The test's timeout: starting two processes and waiting on what passes between them takes a while. */
  timeoutMs?: number;
}

/**
 * Declare a test of two processes on one new PostgreSQL database (startSharedChildren), A and B, skipped where no
 * PostgreSQL answers: what one writes and the other must see.
 */
export function sharedDatabaseTest(
  test: TestFn,
  title: string,
  { config, args = [], timeoutMs = 180_000 }: SharedChildrenOptions,
  body: (t: ExecutionContext, a: ChildRuntime, b: ChildRuntime) => Promise<void>,
): void {
  (postgresReachable() ? test : test.skip)(title, async (t) => {
    t.timeout(timeoutMs);
    const [a, b] = await startSharedChildren(t, config, args);
    await body(t, a, b);
  });
}

/**
 * A request to one service of a child runtime, as its administrator unless `headers` say otherwise. A body goes as
 * JSON; the answer's body is parsed when it is JSON, its text otherwise.
 */
export async function callChild(
  vela: ChildRuntime,
  service: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: CHILD_ADMIN_AUTH },
): Promise<JsonAnswer> {
  const res = await fetch(`${vela.urls[service]}${pathname}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readAnswer(res);
}

/**
 * A caller of one service of child runtimes (callChild): as their administrator unless a call names its own
 * headers, and always with `fixed` (a `connection: close` that sends each request on a connection of its own).
 */
export function childCaller(
  service: string,
  fixed: Record<string, string> = {},
): (
  vela: ChildRuntime,
  method: string,
  pathname: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<JsonAnswer> {
  return (vela, method, pathname, body, headers = { authorization: CHILD_ADMIN_AUTH }) =>
    callChild(vela, service, method, pathname, body, { ...headers, ...fixed });
}

/** A home folder with a plugin packed by `vela pack` into its `plugins/`, as an operator installs one. */
export interface PackedHome {
  home: string;
  /** The folder that holds the archive (a loader-path entry). */
  archives: string;
  /** The archive, the only file `vela pack` wrote. */
  archive: string;
}

/**
 * `vela pack <plugin>` run as a user runs it, into a new home folder removed after the test. Throws, which
 * fails the test, unless the command succeeds and writes the one archive `<plugin>-<version>.tgz`.
 */
export async function packedHome(t: TestTeardown, plugin: string): Promise<PackedHome> {
  const home = mkdtempSync(path.join(os.tmpdir(), `vela-${plugin}-packed-`));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const archives = path.join(home, 'plugins');
  const packed = await runVela(['pack', plugin, '--out', archives]);
  if (packed.code !== 0) throw new Error(`vela pack ${plugin} failed: ${packed.stderr}`);
  const written = readdirSync(archives);
  if (written.length !== 1 || !new RegExp(`^${plugin}-\\d+\\.\\d+\\.\\d+\\.tgz$`).test(written[0]!)) {
    throw new Error(`vela pack ${plugin} wrote ${JSON.stringify(written)}, not one archive of the plugin`);
  }
  return { home, archives, archive: path.join(archives, written[0]!) };
}

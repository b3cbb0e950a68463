import { mkdtempSync, rmSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { type DeepPartial, deepMerge, loadConfig, type RuntimeConfig } from '../config/load-config.js';
import { Runtime } from '../lifecycle/runtime.js';
import { packageRoot } from '../paths.js';

export const TEST_ADMIN = { user: 'admin', password: 'test-admin-password' } as const;

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TestRuntimeOptions {
  /** Plugins to load (with their dependencies); all on the loader path when left out. */
  plugins?: string[];
  /** Defaults to the bundled plugins/ folder. */
  loaderPath?: string[];
  config?: DeepPartial<RuntimeConfig>;
  /** A postgres:// URL (see createTestPostgres) instead of a SQLite file in the temp data dir. */
  databaseUrl?: string;
  /** Reuse a data dir (e.g. to test a restart); a fresh temp dir otherwise, removed at stop. */
  dataDir?: string;
  logLevel?: RuntimeConfig['runtime']['logLevel'];
  /** Do not start, only construct (to test start failures). */
  noStart?: boolean;
}

export interface TestRuntime {
  runtime: Runtime;
  dataDir: string;
  logs: LogLine[];
  url(service: string, pathname?: string): string;
  fetch(service: string, pathname: string, init?: RequestInit): Promise<Response>;
  /** Basic credentials of the test administrator, as an Authorization header value. */
  adminAuth: string;
  stop(): Promise<void>;
}

/** A runtime on ephemeral loopback ports with a temp data dir: what plugin tests start. */
export async function startTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'vela-test-'));
  const logs: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const base = loadConfig({ env: {}, cwd: packageRoot });
  const ephemeral: Record<string, unknown> = {};
  for (const name of Object.keys(base.services)) ephemeral[name] = { port: 0, host: '127.0.0.1' };
  const overrides = deepMerge(
    {
      runtime: {
        dataDir,
        loaderPath: options.loaderPath ?? base.runtime.loaderPath,
        plugins: options.plugins ?? null,
        logLevel: options.logLevel ?? 'info',
        admin: { user: TEST_ADMIN.user, password: TEST_ADMIN.password },
        database: { url: options.databaseUrl ?? null },
        shutdownTimeoutMs: 3000,
        // Test runtimes start empty unless a test asks for the sample data.
        seed: false,
      },
      services: ephemeral,
    },
    (options.config ?? {}) as Record<string, unknown>,
  );
  const config = loadConfig({ env: {}, overrides: overrides as DeepPartial<RuntimeConfig> });
  const runtime = new Runtime({ config, logDestination: destination });
  const stop = async () => {
    await runtime.stop();
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  if (!options.noStart) {
    try {
      await runtime.start();
    } catch (error) {
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const url = (service: string, pathname = '') => `${runtime.url(service)}${pathname}`;
  return {
    runtime,
    dataDir,
    logs,
    url,
    fetch: (service, pathname, init) => fetch(url(service, pathname), init),
    adminAuth: `Basic ${Buffer.from(`${TEST_ADMIN.user}:${TEST_ADMIN.password}`).toString('base64')}`,
    stop,
  };
}

/** startTestRuntime for one test: the runtime stops when the test `t` ends. */
export async function startTestRuntimeFor(
  t: { teardown(fn: () => Promise<void>): void },
  options: TestRuntimeOptions = {},
): Promise<TestRuntime> {
  const vela = await startTestRuntime(options);
  t.teardown(() => vela.stop());
  return vela;
}

export interface PluginFixture {
  manifest: Record<string, unknown>;
  /** File name → content, relative to the plugin folder (index.ts, migrations/001_x.ts, ...). */
  files: Record<string, string>;
}

/** Write plugin folders into a fresh temp loader-path folder and return its path. */
export async function writePlugins(
  plugins: PluginFixture[],
  dir = mkdtempSync(path.join(os.tmpdir(), 'vela-plugins-')),
): Promise<string> {
  for (const plugin of plugins) {
    const folder = path.join(dir, String(plugin.manifest.name));
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'plugin.json'), JSON.stringify(plugin.manifest, null, 2));
    for (const [file, content] of Object.entries(plugin.files)) {
      await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
      await writeFile(path.join(folder, file), content);
    }
  }
  return dir;
}

/** Copy a plugin folder (e.g. the documented example) into a fresh temp loader-path folder. */
export async function copyPlugin(source: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-plugins-'));
  await cp(source, path.join(dir, path.basename(source)), { recursive: true });
  return dir;
}

/** A manifest with the required members filled, for fixtures. */
export function manifest(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, version: '1.0.0', runtime: '^1.0.0', main: './index.ts', service: 'search', ...extra };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type ConfigFlags, loadConfig } from '../config/load-config.js';
import { isVelaError, VelaError } from '../errors.js';
import { Runtime, type RuntimeOptions } from '../lifecycle/runtime.js';
import { resolveLogFormat } from '../logger.js';
import { RUNTIME_VERSION } from '../paths.js';
import { packPlugin } from '../plugins/archive.js';
import { scanLoaderPath } from '../plugins/discover.js';
import { checkRuntimeRange } from '../plugins/manifest.js';
import { resetPassword } from './admin-command.js';
import { attachWorker, detachWorker, startCluster, wantsCluster, workerOptions } from './cluster.js';
import { renderStartBanner, startLinks } from './start-banner.js';
import { USAGE } from './usage.js';

const commonOptions = {
  'loader-path': { type: 'string' },
  config: { type: 'string' },
  plugins: { type: 'string' },
  'data-dir': { type: 'string' },
  'no-seed': { type: 'boolean' },
  'log-format': { type: 'string' },
} as const;

const commandOptions = {
  start: { ...commonOptions, workers: { type: 'string' }, 'split-services': { type: 'boolean' } },
  plugins: commonOptions,
  migrate: commonOptions,
  pack: { out: { type: 'string' }, 'loader-path': { type: 'string' }, config: { type: 'string' } },
  admin: { config: { type: 'string' }, 'data-dir': { type: 'string' }, user: { type: 'string' } },
  help: {},
  version: {},
} as const;

type Command = keyof typeof commandOptions;

class UsageError extends Error {}

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function flagsOf(values: Record<string, string | boolean | undefined>): ConfigFlags {
  return {
    configFile: values.config as string | undefined,
    loaderPath: list(values['loader-path'] as string | undefined),
    plugins: list(values.plugins as string | undefined),
    dataDir: values['data-dir'] as string | undefined,
    seed: values['no-seed'] === true ? false : undefined,
    logFormat: values['log-format'] as string | undefined,
    workers: values.workers === undefined ? undefined : Number(values.workers),
    splitServices: values['split-services'] === true ? true : undefined,
  };
}

/** Checked while parsing, so a bad value is a usage error (exit 2), not a failed start. */
function checkWorkers(value: unknown): void {
  if (value === undefined) return;
  const text = String(value);
  if (!/^\d{1,2}$/.test(text) || Number(text) < 1 || Number(text) > 64)
    throw new UsageError(`--workers takes a number from 1 to 64, got "${text.slice(0, 40)}"`);
}

function parse(argv: string[]): {
  command: Command;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
} {
  if (argv.includes('--help') || argv.includes('-h')) return { command: 'help', values: {}, positionals: [] };
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v'))
    return { command: 'version', values: {}, positionals: [] };
  const first = argv[0];
  const command = (first && !first.startsWith('-') ? first : 'start') as Command;
  if (!(command in commandOptions)) throw new UsageError(`unknown command "${command}"`);
  const rest = first && !first.startsWith('-') ? argv.slice(1) : argv;
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: commandOptions[command],
      strict: true,
      allowPositionals: command === 'pack' || command === 'admin',
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (command === 'pack' && parsed.positionals.length !== 1)
    throw new UsageError('pack takes exactly one plugin folder or plugin name');
  // The new password is never an argument: argv is visible to every user of the machine and kept in shell history.
  if (command === 'admin' && (parsed.positionals.length !== 1 || parsed.positionals[0] !== 'reset-password'))
    throw new UsageError(
      'admin takes one subcommand, reset-password (the new password comes from standard input or VELA_ADMIN_PASSWORD)',
    );
  checkWorkers(parsed.values.workers);
  return {
    command,
    values: parsed.values as Record<string, string | boolean | undefined>,
    positionals: parsed.positionals,
  };
}

/** Returns the exit code: 0 ok, 1 failure, 2 bad usage. */
export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`vela: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    switch (parsed.command) {
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${RUNTIME_VERSION}\n`);
        return 0;
      case 'plugins':
        return await listPlugins(flagsOf(parsed.values));
      case 'migrate':
        return await migrate(flagsOf(parsed.values));
      case 'pack':
        return await pack(parsed.positionals, parsed.values);
      case 'admin':
        return await resetPassword(flagsOf(parsed.values), parsed.values.user as string | undefined);
      case 'start': {
        const flags = flagsOf(parsed.values);
        const worker = workerOptions(flags);
        if (worker) return await start(flags, worker.worker, worker.config);
        if (wantsCluster(loadConfig({ flags }))) return await startCluster(flags);
        return await start(flags);
      }
    }
  } catch (error) {
    // Boot errors are one line for the operator; anything else is a bug and keeps its stack.
    process.stderr.write(`vela: ${isVelaError(error) ? error.message : ((error as Error).stack ?? String(error))}\n`);
    return 1;
  }
}

async function start(
  flags: ConfigFlags,
  worker?: RuntimeOptions['worker'],
  config?: RuntimeOptions['config'],
): Promise<number> {
  const runtime = new Runtime({ flags, worker, config });
  let exit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => {
    exit = resolve;
  });
  let started: Promise<void> | null = null;
  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // npm and the terminal may both deliver one Ctrl-C; only a repeat after a pause forces the exit.
    if (firstSignalAt && Date.now() - firstSignalAt < 1500) return;
    if (firstSignalAt) {
      runtime.logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    firstSignalAt = Date.now();
    runtime.logger.info({ signal }, 'signal received');
    // Handlers are in place before the start, so a signal during a slow start (migrations, ready taps) is
    // not Node's default exit: the stop waits for the start to settle. A failed start has already released
    // what it opened, and its error is reported by the caller.
    started?.then(
      () =>
        runtime.stop().then(
          () => exit(0),
          (error: Error) => {
            runtime.logger.error({ err: error }, 'stop failed');
            exit(1);
          },
        ),
      () => undefined,
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  started = runtime.start();
  try {
    await started;
  } catch (error) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // A worker that could not start must exit for the primary to see it: the channel to the primary would keep it
    // alive.
    if (worker) detachWorker();
    throw error;
  }
  // Of several workers, each group's owner speaks for it.
  if (!worker || worker.owner) announce(runtime);
  if (!worker) return exited;
  attachWorker(runtime, exit);
  const code = await exited;
  detachWorker();
  return code;
}

/** Where to go now: a banner for a person at a terminal, one JSON line with the same links for collectors. */
function announce(runtime: Runtime): void {
  if (runtime.status !== 'running') return;
  const links = startLinks(runtime);
  if (resolveLogFormat(runtime.config.runtime.logFormat) === 'pretty')
    process.stdout.write(`${renderStartBanner(links)}\n`);
  else {
    const { generatedPassword: _shownInItsOwnLine, ...admin } = links.admin;
    runtime.logger.info({ ...links, admin }, `ready: open ${links.sample ?? links.services[0]?.url ?? ''}`);
  }
}

async function migrate(flags: ConfigFlags): Promise<number> {
  const runtime = new Runtime({ flags });
  await runtime.migrateOnly();
  process.stdout.write(`migrations are up to date for runtime${runtime.pluginNames.map((n) => `, ${n}`).join('')}\n`);
  return 0;
}

async function listPlugins(flags: ConfigFlags): Promise<number> {
  const config = loadConfig({ flags });
  const { plugins, problems } = await scanLoaderPath(
    config.runtime.loaderPath,
    path.join(config.runtime.dataDir, 'plugin-cache'),
    false,
  );
  const rows = plugins.map((d) => {
    let validity = 'valid';
    try {
      checkRuntimeRange(d);
      if (!config.services[d.manifest.service]) validity = `invalid: unknown service "${d.manifest.service}"`;
    } catch (error) {
      validity = `invalid: ${(error as Error).message}`;
    }
    return [d.manifest.name, d.manifest.version, d.manifest.service, d.origin.kind, validity, d.origin.path];
  });
  for (const problem of problems)
    rows.push([
      '?',
      '?',
      '?',
      problem.path.endsWith('.tgz') ? 'archive' : 'folder',
      `invalid: ${problem.message}`,
      problem.path,
    ]);
  const header = ['NAME', 'VERSION', 'SERVICE', 'KIND', 'STATUS', 'PATH'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
  return rows.some((r) => r[4]!.startsWith('invalid')) ? 1 : 0;
}

async function pack(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<number> {
  const target = positionals[0]!;
  let dir = path.resolve(target);
  if (!existsSync(path.join(dir, 'plugin.json'))) {
    const config = loadConfig({
      flags: {
        loaderPath: list(values['loader-path'] as string | undefined),
        configFile: values.config as string | undefined,
      },
    });
    const { plugins } = await scanLoaderPath(
      config.runtime.loaderPath,
      path.join(config.runtime.dataDir, 'plugin-cache'),
      false,
    );
    const found = plugins.find((p) => p.manifest.name === target && p.origin.kind === 'folder');
    if (!found)
      throw new VelaError(
        'E_USAGE',
        `"${target}" is neither a plugin folder nor the name of a plugin folder on the loader path`,
      );
    dir = found.dir;
  }
  const out = await packPlugin(dir, path.resolve((values.out as string | undefined) ?? '.'));
  process.stdout.write(`${out}\n`);
  return 0;
}

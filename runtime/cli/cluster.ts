import cluster from 'node:cluster';
import { Accounts, announceGeneratedPassword } from '../auth/accounts.js';
import { type ConfigFlags, loadConfig, type RuntimeConfig } from '../config/load-config.js';
import { checkCanListen } from '../http/service-server.js';
import { Runtime, type RuntimeOptions } from '../lifecycle/runtime.js';
import { createLogger } from '../logger.js';
import { createDatabase } from '../storage/database.js';
import { planCluster, type WorkerSpec } from './cluster-plan.js';
import { READY, SHUTDOWN, Supervisor, WORKER_ENV } from './supervisor.js';

/**
 * `vela start --workers N [--split-services]`: the primary process migrates once, then forks the workers
 * (node:cluster: each service's port is shared, connections go round-robin) and supervises them
 * (supervisor.ts). It serves nothing itself. Each group (every service together, or one service each with
 * --split-services) has N workers; slot 0 of a group is its owner (scheduled jobs, sample seeding). SIGHUP
 * replaces the workers one at a time (the new one is ready before the old one stops accepting),
 * SIGINT/SIGTERM stop them all. Workers relay change notices through the primary (the `changes` service's
 * cluster mode, for SQLite). See docs/scaling.md.
 */

/** Whether this configuration asks for more than the one process. */
export function wantsCluster(config: RuntimeConfig): boolean {
  return config.runtime.processes.workers > 1 || config.runtime.processes.splitServices;
}

/** In a worker: the configuration and worker identity of its slot, from what the primary put in its environment. */
export function workerOptions(
  flags: ConfigFlags,
): { config: RuntimeConfig; worker: NonNullable<RuntimeOptions['worker']> } | null {
  const raw = process.env[WORKER_ENV];
  if (!cluster.isWorker || !raw) return null;
  // It holds the cluster's secret: not for the processes this one may start.
  delete process.env[WORKER_ENV];
  const spec = JSON.parse(raw) as WorkerSpec;
  const config = loadConfig({ flags: { ...flags, ...(spec.plugins ? { plugins: spec.plugins } : {}) } });
  for (const [service, port] of Object.entries(spec.ports))
    if (config.services[service]) config.services[service].port = port;
  return {
    config,
    worker: {
      slot: spec.slot,
      count: spec.count,
      group: spec.group,
      owner: spec.slot === 0,
      services: spec.services,
      secret: spec.secret,
    },
  };
}

/** In a worker, once its runtime is up: tell the primary, and stop when the primary says so. */
export function attachWorker(runtime: Runtime, exit: (code: number) => void): void {
  process.on('message', (message) => {
    if (message !== SHUTDOWN) return;
    runtime.stop().then(
      () => exit(0),
      (error: Error) => {
        runtime.logger.error({ err: error }, 'stop failed');
        exit(1);
      },
    );
  });
  process.send?.(READY);
}

/** In a worker whose runtime has stopped: close the channel to the primary, or it keeps the process alive. */
export function detachWorker(): void {
  if (process.connected) process.disconnect();
}

/** The primary: returns the exit code once every worker has stopped. */
export async function startCluster(flags: ConfigFlags): Promise<number> {
  const config = loadConfig({ flags });
  const { logLevel, logFormat } = config.runtime;
  // The primary's few lines (ready with the URLs, signals, workers replaced) are what an operator or a script
  // waits for: at least at info, like the start banner, unless logging is off.
  const level = logLevel === 'silent' || ['debug', 'trace'].includes(logLevel) ? logLevel : 'info';
  const logger = createLogger({ level, format: logFormat }).child({ component: 'cluster' });
  const plan = await planCluster(config);
  // Before the migrations create anything (the administrator and its one-time password): the workers would
  // find a port in use only after them.
  const chosen = plan.specs[0]?.ports ?? {};
  for (const name of Object.keys(plan.services)) {
    const service = config.services[name]!;
    await checkCanListen(name, service.host, chosen[name] ?? service.port);
  }
  // Migrations once, here, before any worker starts (workers migrating at once would race for knex's lock).
  const migrator = new Runtime({ flags, logger: createLogger({ level: logLevel, format: logFormat }) });
  await migrator.migrateOnly({ announce: false });
  // A generated administrator password is shown once every worker serves; if one cannot start, the account goes.
  const password = migrator.generatedAdminPassword;
  const user = config.runtime.admin.user;
  return new Supervisor(plan, logger).run({
    ready: () => {
      if (password) announceGeneratedPassword(logger.child({ component: 'accounts' }), user, password);
    },
    failed: async () => {
      if (!password) return;
      const db = createDatabase(config.runtime, logger.child({ component: 'db' }));
      await new Accounts(db, logger.child({ component: 'accounts' }))
        .withdrawGenerated(user, password)
        .catch((e: Error) =>
          logger.error({ err: e }, 'the administrator created by this failed start could not be removed'),
        )
        .finally(() => db.destroy());
    },
  });
}

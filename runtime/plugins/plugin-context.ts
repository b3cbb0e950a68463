import path from 'node:path';
import type { AwilixContainer } from 'awilix';
import * as tapable from 'tapable';
import { PluginScope, registerSingleton } from '../di/container.js';
import { bootErrors, httpErrors, VelaError } from '../errors.js';
import type { HookBus } from '../hooks/hook-bus.js';
import type { ServiceServer } from '../http/service-server.js';
import type { Logger } from '../logger.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import { type Database, tablePrefix } from '../storage/database.js';
import { scopedDatabase, TABLE_SCOPE_CHECKED } from '../storage/table-scope.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { PluginDescriptor } from './manifest.js';
import type { HealthCheckOutcome, PluginContext, PluginHooks, RuntimeInfo } from './plugin-api.js';

interface ContextDeps {
  root: AwilixContainer;
  hooks: HookBus;
  server: ServiceServer;
  logger: Logger;
  dataDir: string;
  config: Record<string, unknown>;
  runtime: RuntimeInfo;
  /** Who owns tables: the runtime and every loaded plugin (a plugin's `db` refuses the others' tables). */
  tableOwners: readonly string[];
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const pluginErrors = {
  ...httpErrors,
  create: (code: string, message: string, status: number) => new VelaError(code, message, status),
};

export function createPluginContext(
  descriptor: PluginDescriptor,
  deps: ContextDeps,
): { ctx: PluginContext; scope: PluginScope } {
  const { manifest } = descriptor;
  const name = manifest.name;
  const logger = deps.logger.child({ plugin: name });
  // A plugin may resolve what it consumes and what it provides itself.
  const scope = new PluginScope(deps.root, name, [...manifest.consumes, ...manifest.provides], {
    logger,
    pluginConfig: deps.config,
  });
  if (TABLE_SCOPE_CHECKED)
    scope.override('db', () => scopedDatabase(deps.root.resolve<Database>('db'), name, deps.tableOwners));
  const tapName = (tap: string) => `${name}:${tap}`;
  const consumed = (service: string) =>
    manifest.consumes.includes(service) || manifest.consumes.includes(`${service}?`);

  const hooks: PluginHooks = {
    declare: (hooksOrFactory) =>
      deps.hooks.declare(
        name,
        typeof hooksOrFactory === 'function' ? hooksOrFactory(tapable) : hooksOrFactory,
        manifest.hooks,
      ),
    tap: (hook, tap, fn, options) => deps.hooks.tap(hook, tapName(tap), fn, options),
    tapPromise: (hook, tap, fn, options) => deps.hooks.tapPromise(hook, tapName(tap), fn, options),
    tapFor: (hook, key, tap, fn, kind) => deps.hooks.tapFor(hook, key, tapName(tap), fn, kind),
    get: (hook) => deps.hooks.get(hook),
  };

  const ctx: PluginContext = {
    name,
    version: manifest.version,
    manifest,
    config: deps.config,
    logger,
    dir: descriptor.dir,
    dataDir: path.join(deps.dataDir, name),
    service: manifest.service,
    tablePrefix: tablePrefix(name),
    runtime: deps.runtime,
    hooks,
    openapi: deps.server.openapi,
    errors: pluginErrors,
    publicUrl: () => deps.server.publicUrls()[0]!,
    publicUrls: () => deps.server.publicUrls(),
    access: {
      acceptKeys: (verify) => deps.server.access.acceptKeys(name, verify),
      authenticate: (req) => deps.server.access.authenticate(req),
    },
    resolve: (service) => scope.resolve(service),
    tryResolve: (service) => scope.tryResolve(service),
    provide: (service, factory, options) => {
      if (!manifest.provides.includes(service)) throw bootErrors.serviceUndeclared(name, service);
      registerSingleton(deps.root, service, factory, options?.dispose);
    },
    routes: (mount) => {
      const router = deps.server.router(name);
      mount(router);
      deps.server.mount(router.raw);
    },
    intercept: (interceptName, fn) => deps.server.intercept(tapName(interceptName), fn),
    health: (checkName, check, timeoutMs = 2000) => {
      deps.hooks.tapPromise('runtime.health', tapName(`health.${checkName}`), async (collector) => {
        if (collector.service !== manifest.service) return;
        const started = performance.now();
        const outcome = await withTimeout<HealthCheckOutcome>(
          Promise.resolve()
            .then(check)
            .catch((error: Error) => ({ status: 'DOWN', message: error.message })),
          timeoutMs,
          () => ({ status: 'DOWN', message: `no answer within ${timeoutMs} ms` }),
        );
        collector.add({
          plugin: name,
          name: checkName,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...outcome,
        });
      });
    },
    schedule: (job, expression, fn, options) => {
      if (!consumed('scheduler')) throw bootErrors.serviceNotConsumed(name, 'scheduler');
      deps.root.resolve<Scheduler>('scheduler').add(`${name}.${job}`, expression, fn, options);
    },
    task: (file, exportName) => {
      if (!consumed('workers')) throw bootErrors.serviceNotConsumed(name, 'workers');
      return deps.root.resolve<WorkerPool>('workers').task(file, exportName);
    },
  };
  return { ctx, scope };
}

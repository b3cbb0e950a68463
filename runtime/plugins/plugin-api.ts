import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { ApiRouter } from '../http/api-router.js';
import type { OpenApiRegistry } from '../http/openapi-registry.js';
import type { HookName, HookRegistry, MapEntry, PromiseTapFn, SyncTapFn } from '../hooks/hook-registry.js';
import type { HealthStatus } from '../hooks/runtime-hooks.js';
import type { JobOptions } from '../scheduler/scheduler.js';
import type { TaskRunner } from '../workers/worker-pool.js';
import type { PluginManifest } from './manifest.js';
import type { httpErrors, VelaError } from '../errors.js';

export type Tapable = typeof import('tapable');

export type PluginErrors = typeof httpErrors & { create(code: string, message: string, status: number): VelaError };

export interface HealthCheckOutcome {
  status: HealthStatus;
  details?: Record<string, unknown>;
  message?: string;
}

export interface PluginHooks {
  /**
   * Declare this plugin's hooks: one object, keys without the plugin prefix; returns it frozen.
   * Pass a function to get tapable's classes from the runtime, so a plugin outside this package
   * needs no tapable of its own.
   */
  declare<T extends object>(hooks: T | ((tapable: Tapable) => T)): Readonly<T>;
  /** Tap a hook of the runtime or of any loaded plugin. The tap is named `<plugin>:<tapName>`. */
  tap<K extends HookName>(hook: K, tapName: string, fn: SyncTapFn<HookRegistry[K]>, options?: { stage?: number; before?: string | string[] }): void;
  tapPromise<K extends HookName>(hook: K, tapName: string, fn: PromiseTapFn<HookRegistry[K]>, options?: { stage?: number; before?: string | string[] }): void;
  /** Tap the hook a HookMap holds for `key`. */
  tapFor<K extends HookName>(hook: K, key: string, tapName: string, fn: SyncTapFn<MapEntry<HookRegistry[K]>> | PromiseTapFn<MapEntry<HookRegistry[K]>>, kind?: 'sync' | 'promise'): void;
  /** A declared hook, after register. */
  get<K extends HookName>(hook: K): HookRegistry[K];
}

/** What the runtime hands a plugin in each phase. */
export interface PluginContext<Config = Record<string, unknown>> {
  readonly name: string;
  readonly version: string;
  readonly manifest: PluginManifest;
  /** Its config section, validated by its schema, with defaults filled. */
  readonly config: Config;
  /** Child logger `{plugin: name}`. */
  readonly logger: Logger;
  /** The plugin's own folder (where plugin.json is). */
  readonly dir: string;
  /** `<dataDir>/<plugin>`: its files (index snapshots, uploads); created before start. */
  readonly dataDir: string;
  /** The service (listener) it mounts into. */
  readonly service: string;
  /** Prefix of every table it owns: `<name>_`. */
  readonly tablePrefix: string;
  readonly hooks: PluginHooks;
  readonly openapi: OpenApiRegistry;
  /**
   * Coded HTTP errors (`throw ctx.errors.notFound('...')`, or `ctx.errors.create(code, message, status)`),
   * so a plugin that imports only types from the runtime can still answer in the one error shape.
   */
  readonly errors: PluginErrors;

  /** A service listed in the manifest's `consumes`; anything else fails with E_SERVICE_NOT_CONSUMED. */
  resolve<T = unknown>(service: string): T;
  /** Like resolve, for a service marked optional (`name?`): undefined when nothing provides it. */
  tryResolve<T = unknown>(service: string): T | undefined;
  /** Register a service listed in `provides`; created on first resolve; `dispose` runs at stop. */
  provide<T>(service: string, factory: () => T, options?: { dispose?: (value: T) => unknown }): void;

  /** Mount routes on its service; each route's schemas validate and document it. */
  routes(mount: (router: ApiRouter) => void): void;
  /** See raw requests of its service before express (hot paths); return true when answered. */
  intercept(name: string, fn: (req: IncomingMessage, res: ServerResponse) => boolean): void;
  /** Add a check to its service's GET /health. */
  health(name: string, check: () => Promise<HealthCheckOutcome> | HealthCheckOutcome, timeoutMs?: number): void;
  /** A node-cron job named `<plugin>.<name>` (needs `scheduler` in consumes). */
  schedule(name: string, expression: string, fn: () => unknown, options?: JobOptions): void;
  /** A worker-pool task from a module file (needs `workers` in consumes). */
  task<In, Out>(file: string | URL, exportName?: string): TaskRunner<In, Out>;
}

export interface PluginDefinition<Config = Record<string, unknown>> {
  /** Synchronous wiring only (services, routes, hooks, jobs, tasks); no I/O. */
  register(ctx: PluginContext<Config>): void;
  /** Open resources, warm caches; runs in dependency order after migrations. */
  start?(ctx: PluginContext<Config>): Promise<void> | void;
  /** Release resources; runs in reverse order, bounded in time. */
  stop?(ctx: PluginContext<Config>): Promise<void> | void;
}

/** Identity function that gives a plugin's default export its types. */
export function definePlugin<Config = Record<string, unknown>>(definition: PluginDefinition<Config>): PluginDefinition<Config> {
  return definition;
}

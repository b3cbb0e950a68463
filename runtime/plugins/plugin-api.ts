import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyVerifier, Principal } from '../auth/access-policy.js';
import type { httpErrors, VelaError } from '../errors.js';
import type { HookName, HookRegistry, MapEntry, PromiseTapFn, SyncTapFn } from '../hooks/hook-registry.js';
import type { HealthStatus } from '../hooks/runtime-hooks.js';
import type { ApiRouter } from '../http/api-router.js';
import type { OpenApiRegistry } from '../http/openapi-registry.js';
import type { Logger } from '../logger.js';
import type { JobOptions } from '../scheduler/scheduler.js';
import type { TaskRunner } from '../workers/worker-pool.js';
import type { PluginManifest } from './manifest.js';
import type { ServiceName, ServiceRegistry } from './service-registry.js';

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
  tap<K extends HookName>(
    hook: K,
    tapName: string,
    fn: SyncTapFn<HookRegistry[K]>,
    options?: { stage?: number; before?: string | string[] },
  ): void;
  tapPromise<K extends HookName>(
    hook: K,
    tapName: string,
    fn: PromiseTapFn<HookRegistry[K]>,
    options?: { stage?: number; before?: string | string[] },
  ): void;
  /** Tap the hook a HookMap holds for `key`. */
  tapFor<K extends HookName>(
    hook: K,
    key: string,
    tapName: string,
    fn: SyncTapFn<MapEntry<HookRegistry[K]>> | PromiseTapFn<MapEntry<HookRegistry[K]>>,
    kind?: 'sync' | 'promise',
  ): void;
  /** A declared hook, after register. */
  get<K extends HookName>(hook: K): HookRegistry[K];
}

/** The access policy of the plugin's service (routes declare theirs in their specs: `access`). */
export interface PluginAccess {
  /**
   * Accept API keys on this plugin's service: `verify` gets the Key header's value (or an `Authorization: Bearer`
   * token's) and answers the principal it stands for, or null. Routes declaring `access: 'key'` then let such
   * callers in.
   */
  acceptKeys(verify: KeyVerifier): void;
  /** Who is calling (Key header, administrator's Basic credentials or console session), for pages and raw routes. */
  authenticate(req: IncomingMessage): Promise<Principal | null>;
}

/** What a plugin may know of the runtime hosting it (least privilege: not the whole configuration). */
export interface RuntimeInfo {
  /** The host package's name and version (`vela version`). */
  readonly name: string;
  readonly version: string;
  /** Whether plugins may seed sample data on a first start (`--no-seed` turns it off). */
  readonly seed: boolean;
  /**
   * Set when this process is one of several `vela start --workers N` runs on one machine: its slot (0 to
   * count - 1, kept by its replacement on a restart), how many there are in its group (`all`, or the service
   * with `--split-services`), and whether it is the group's owner (it runs the scheduled jobs). Work done
   * once per machine (rewriting shared files, such as the search snapshots) is the owner's, under a lease
   * while an old owner retires on SIGHUP (docs/scaling.md). `services`: the URL of every service of
   * the cluster, those other processes serve included (--split-services); `secret`: a key every service of
   * the cluster accepts in the Key header (as the administrator's API key), for one process's calls to
   * another's service. A secret: never logged, never sent anywhere but to those URLs.
   */
  readonly worker?: {
    readonly slot: number;
    readonly count: number;
    readonly group: string;
    readonly owner: boolean;
    readonly services: Readonly<Record<string, string>>;
    readonly secret: string;
  };
}

/** A `consumes` entry: a service's name, with a trailing `?` when the plugin can do without it. */
export type ConsumesEntry = ServiceName | `${ServiceName}?`;

/** A plugin's `consumes` list; the wide default stands for a plugin that does not declare it in code. */
export type ConsumesList = readonly ConsumesEntry[];

/** The services each plugin may resolve whatever it consumes: its own logger and configuration. */
type OwnService = 'logger' | 'pluginConfig';

type Undeclared<C extends ConsumesList> = ConsumesEntry[] extends C ? true : false;
type NameOf<E> = E extends `${infer N}?` ? N : E;
type OptionalOf<E> = E extends `${infer N}?` ? N : never;

/** The names `ctx.resolve` accepts: any service when the definition declares no `consumes`, else exactly those. */
export type ResolvableName<C extends ConsumesList> =
  Undeclared<C> extends true ? ServiceName : (NameOf<C[number]> | OwnService) & ServiceName;

/** What `ctx.resolve(name)` answers: the service, or undefined too when it is declared optional (`name?`). */
export type Resolved<C extends ConsumesList, K extends ServiceName> =
  Undeclared<C> extends true
    ? ServiceRegistry[K]
    : K extends OptionalOf<C[number]>
      ? ServiceRegistry[K] | undefined
      : ServiceRegistry[K];

/** What the runtime hands a plugin in each phase. */
export interface PluginContext<Config = Record<string, unknown>, Consumes extends ConsumesList = ConsumesList> {
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
  readonly runtime: RuntimeInfo;
  readonly hooks: PluginHooks;
  readonly openapi: OpenApiRegistry;
  /**
   * Coded HTTP errors (`throw ctx.errors.notFound('...')`, or `ctx.errors.create(code, message, status)`),
   * so a plugin that imports only types from the runtime can still answer in the one error shape.
   */
  readonly errors: PluginErrors;

  readonly access: PluginAccess;
  /**
   * The service's base URL as clients reach it (`services.<name>.publicUrl`, else its listening address):
   * for issuers, absolute links and redirects, instead of the request's Host header, which a client sets.
   */
  publicUrl(): string;
  /** Every base URL the service answers as its own: `publicUrl()`, and without one, the other loopback spellings. */
  publicUrls(): string[];

  /**
   * A service listed in the manifest's `consumes`; anything else fails with E_SERVICE_NOT_CONSUMED. One
   * marked optional (`name?`) answers undefined when nothing provides it. Typed by ServiceRegistry (the
   * runtime's services, and those each provider declares in its api.ts), and, when the definition
   * declares `consumes`, to exactly those names.
   */
  resolve<K extends ResolvableName<Consumes>>(service: K): Resolved<Consumes, K>;
  /** Like resolve, but undefined for any service nothing provides. */
  tryResolve<K extends ResolvableName<Consumes>>(service: K): ServiceRegistry[K] | undefined;
  /** Register a service listed in `provides`; created on first resolve; `dispose` runs at stop. */
  provide<K extends ServiceName>(
    service: K,
    factory: () => ServiceRegistry[K],
    options?: { dispose?: (value: ServiceRegistry[K]) => unknown },
  ): void;

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

/** What `register` may return: the plugin's lifecycle, closing over the objects register built. */
export interface PluginLifecycle {
  /** Open resources, warm caches; runs in dependency order after migrations. */
  start?(): Promise<void> | void;
  /** Release resources; runs in reverse order, bounded in time (also after a failed start). */
  stop?(): Promise<void> | void;
}

export interface PluginDefinition<Config = Record<string, unknown>, Consumes extends ConsumesList = ConsumesList> {
  /**
   * The services it resolves, exactly as plugin.json's `consumes` lists them (`name?` for an optional one;
   * the loader refuses a plugin whose two lists differ). Declared `as const`, it types `ctx.resolve` to
   * those names. Optional: without it, `ctx.resolve` takes any service name and the manifest alone rules.
   */
  readonly consumes?: Consumes;
  /**
   * Synchronous wiring only (services, routes, hooks, jobs, tasks); no I/O. Build the plugin's objects
   * here and return the lifecycle functions that use them: the state lives in this closure, one per
   * runtime, never in module variables.
   */
  register(ctx: PluginContext<Config, Consumes>): PluginLifecycle | undefined;
}

/**
 * Identity function that gives a plugin's default export its types. With a config type, name the list's
 * type too (`definePlugin<MyConfig, typeof consumes>({ consumes, register(ctx) {...} })`): TypeScript
 * infers no type argument once one is given.
 */
export function definePlugin<Config = Record<string, unknown>, const Consumes extends ConsumesList = ConsumesList>(
  definition: PluginDefinition<Config, Consumes>,
): PluginDefinition<Config, Consumes> {
  return definition;
}

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AwilixContainer } from 'awilix';
import { Accounts } from '../auth/accounts.js';
import { AdminAccess } from '../auth/admin-access.js';
import { PasswordAttempts } from '../auth/password-attempts.js';
import { sameSecret } from '../auth/secret-digest.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { moveFormerConfig } from '../config/former-config.js';
import { type ConfigSources, loadConfig, type RuntimeConfig } from '../config/load-config.js';
import { validateAgainst } from '../config/schema-validation.js';
import { createRootContainer, type PluginScope, registerSingleton, registerValue } from '../di/container.js';
import { bootErrors, VelaError } from '../errors.js';
import { HookBus } from '../hooks/hook-bus.js';
import { createRuntimeHooks, type RuntimeHooks } from '../hooks/runtime-hooks.js';
import { HttpClient } from '../http/http-client.js';
import { ServiceServer } from '../http/service-server.js';
import { createLogger, type Logger } from '../logger.js';
import { OutboundGuard } from '../network/outbound-guard.js';
import { packageRoot, RUNTIME_NAME, RUNTIME_VERSION } from '../paths.js';
import { selectAndOrder } from '../plugins/dependency-order.js';
import { scanLoaderPath, unpackSelected } from '../plugins/discover.js';
import { checkRuntimeRange, type PluginDescriptor, readJsonSchema, resolveInPlugin } from '../plugins/manifest.js';
import type { PluginContext, PluginDefinition, PluginLifecycle, RuntimeInfo } from '../plugins/plugin-api.js';
import { createPluginContext } from '../plugins/plugin-context.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { registerPluginResolution } from '../sdk/resolution.js';
import { createDatabase, type Database } from '../storage/database.js';
import { migrateOwner } from '../storage/migrations.js';
import { WorkerPool } from '../workers/worker-pool.js';
import { type BootTree, type Phase, type PluginTiming, renderBootTree } from './boot-tree.js';

interface LoadedPlugin {
  descriptor: PluginDescriptor;
  definition: PluginDefinition;
  /** What register returned: start and stop, closing over the plugin's objects. */
  lifecycle: PluginLifecycle;
  ctx: PluginContext;
  scope: PluginScope;
  timing: PluginTiming;
  started: boolean;
}

export interface RuntimeOptions extends ConfigSources {
  /** Use this configuration as it is instead of loading one. */
  config?: RuntimeConfig;
  logger?: Logger;
  logDestination?: NodeJS.WritableStream;
  /** One of several worker processes (runtime/cli/cluster.ts): only the owner runs the scheduled jobs. */
  worker?: NonNullable<RuntimeInfo['worker']>;
}

export type RuntimeState = 'new' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export const RUNTIME_MIGRATIONS = path.join(packageRoot, 'runtime', 'migrations');

/** How long a start waits for the change feed to listen before it serves anyway. */
const CHANGES_READY_MS = 5000;

/**
 * The plugin host. start(): find plugins → check manifests and config → import entries → register
 * (sync) → apply taps → migrate → start (dependency order) → listen → ready. stop(): shutdown hook
 * → close listeners (in-flight requests finish) → plugins stop in reverse → jobs, workers, db.
 */
export class Runtime {
  readonly config: RuntimeConfig;
  readonly logger: Logger;
  readonly hookBus = new HookBus();
  readonly hooks: RuntimeHooks;
  readonly services = new Map<string, ServiceServer>();
  readonly container: AwilixContainer = createRootContainer();
  private plugins: LoadedPlugin[] = [];
  private state: RuntimeState = 'new';
  private bootTree: BootTree | null = null;
  private stopPromise: Promise<void> | null = null;
  private admin: AdminAccess | null = null;
  private generatedPassword: string | null = null;
  private readonly worker: RuntimeOptions['worker'];

  constructor(options: RuntimeOptions = {}) {
    this.worker = options.worker;
    registerPluginResolution();
    this.config = options.config ?? loadConfig(options);
    this.logger =
      options.logger ??
      createLogger({
        level: this.config.runtime.logLevel,
        format: this.config.runtime.logFormat,
        destination: options.logDestination,
      });
    this.hooks = this.hookBus.declare('runtime', createRuntimeHooks());
    this.registerCoreServices();
  }

  get status(): RuntimeState {
    return this.state;
  }

  get pluginNames(): string[] {
    return this.plugins.map((p) => p.descriptor.manifest.name);
  }

  get db(): Database {
    return this.container.resolve<Database>('db');
  }

  /** Resolve a root service (core or plugin-provided): for tests and the CLI. */
  resolve<T>(name: string): T {
    return this.container.resolve<T>(name);
  }

  url(service: string): string {
    const server = this.services.get(service);
    if (!server)
      throw new Error(
        `service "${service}" is not running (running: ${[...this.services.keys()].join(', ') || 'none'})`,
      );
    return server.address().url;
  }

  tree(): BootTree | null {
    return this.bootTree;
  }

  /** The administrator's password when this start generated it (the first start without one configured). */
  get generatedAdminPassword(): string | null {
    return this.generatedPassword;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error(`runtime cannot start from state ${this.state}`);
    this.state = 'starting';
    const began = performance.now();
    try {
      const descriptors = await this.discover();
      await this.load(descriptors);
      this.register();
      // A port in use is found before the database or the administrator is touched, not after the migrations
      // and the plugins' starts. Worker processes listen on the primary's shared ports, which it checked.
      if (!this.worker) for (const server of this.services.values()) await server.checkCanListen();
      const runtimeMigrateMs = await this.migrate();
      await this.startPlugins();
      await this.listen();
      // Of several worker processes, only the owner runs the scheduled jobs (see docs/scaling.md).
      if (!this.worker || this.worker.owner) this.container.resolve<Scheduler>('scheduler').start();
      this.state = 'running';
      this.bootTree = this.buildTree(performance.now() - began, runtimeMigrateMs);
      this.logger.info({ bootTree: this.bootTree }, renderBootTree(this.bootTree));
      await this.hooks.ready.promise({
        services: Object.fromEntries([...this.services].map(([name, s]) => [name, s.address()])),
        plugins: this.pluginNames,
      });
      this.announceGeneratedPassword();
    } catch (error) {
      this.state = 'failed';
      await this.withdrawGeneratedPassword();
      await this.teardown().catch((e: Error) => this.logger.error({ err: e }, 'cleanup after a failed start failed'));
      throw error;
    }
  }

  /**
   * register and migrate every plugin, then release everything: `vela migrate`. `announce: false` leaves a
   * generated administrator password unlogged (`generatedAdminPassword`), for a caller that shows it once
   * its own start has come up (the primary of several worker processes).
   */
  async migrateOnly({ announce = true }: { announce?: boolean } = {}): Promise<void> {
    if (this.state !== 'new') throw new Error(`runtime cannot migrate from state ${this.state}`);
    this.state = 'starting';
    try {
      await this.load(await this.discover());
      this.register();
      await this.migrate();
      if (announce) this.announceGeneratedPassword();
    } catch (error) {
      await this.withdrawGeneratedPassword();
      throw error;
    } finally {
      this.state = 'stopped';
      await this.teardown();
    }
  }

  /** Idempotent; a second call waits for the first. */
  stop(): Promise<void> {
    this.stopPromise ??= this.doStop();
    return this.stopPromise;
  }

  private async doStop(): Promise<void> {
    if (this.state === 'new' || this.state === 'stopped') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    this.logger.info('stopping');
    await this.hooks.shutdown.promise().catch((e: Error) => this.logger.error({ err: e }, 'a shutdown tap failed'));
    await this.teardown();
    this.state = 'stopped';
    this.logger.info('stopped');
  }

  private async teardown(): Promise<void> {
    const { shutdownTimeoutMs } = this.config.runtime;
    // A worker process leaving while others serve its ports lets its keep-alive clients go without a reset.
    await Promise.all([...this.services.values()].map((s) => s.close(shutdownTimeoutMs, !!this.worker)));
    for (const plugin of [...this.plugins].reverse()) {
      if (!plugin.started || !plugin.lifecycle.stop) continue;
      await this.phase(plugin, 'stop', shutdownTimeoutMs, () => plugin.lifecycle.stop!()).catch((e: Error) =>
        this.logger.error({ err: e, plugin: plugin.descriptor.manifest.name }, 'plugin stop failed'),
      );
      plugin.started = false;
    }
    await this.container.resolve<Scheduler>('scheduler').stop(shutdownTimeoutMs);
    // Disposers close the worker pool, the database and plugin-provided services.
    await this.container.dispose();
  }

  private registerCoreServices(): void {
    const c = this.container;
    const rt = this.config.runtime;
    // Not the configuration: plugins get their own section (ctx.config) and ctx.runtime, never the rest.
    registerValue(c, 'logger', this.logger);
    registerSingleton(
      c,
      'db',
      () => createDatabase(rt, this.logger.child({ component: 'db' })),
      (db) => db.destroy(),
    );
    registerSingleton(
      c,
      'workers',
      () => new WorkerPool(rt.workers, this.logger.child({ component: 'workers' })),
      (pool) => pool.close(),
    );
    registerSingleton(c, 'scheduler', () => new Scheduler(this.logger.child({ component: 'scheduler' })));
    registerSingleton(
      c,
      'changes',
      () =>
        new ChangeFeed(
          () => c.resolve<Database>('db'),
          rt.database.url ?? null,
          this.logger.child({ component: 'changes' }),
        ),
      (feed) => feed.close(),
    );
    registerSingleton(c, 'httpClient', () => new HttpClient());
    registerSingleton(
      c,
      'outbound',
      () => new OutboundGuard({ allowHosts: rt.network.allowHosts, selfHosts: (service) => this.selfHosts(service) }),
      (guard) => guard.close(),
    );
    registerSingleton(
      c,
      'accounts',
      () =>
        new Accounts(
          c.resolve<Database>('db'),
          this.logger.child({ component: 'accounts' }),
          new PasswordAttempts(rt.auth.passwordAttempts),
        ),
    );
  }

  /**
   * The `host:port` spellings one of this runtime's services is reached at, for `self:<service>` entries of
   * `runtime.network.allowHosts`: its listening port (the configured one before it listens), under each
   * loopback name when it listens on loopback or everywhere, and the host of its publicUrl.
   */
  private selfHosts(service: string): string[] {
    const config = this.config.services[service];
    if (!config) return [];
    const port = this.services.get(service)?.address().port ?? config.port;
    const hosts = new Set<string>();
    const host = config.host.toLowerCase();
    if (['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'].includes(host)) {
      for (const name of ['127.0.0.1', 'localhost', '[::1]']) hosts.add(`${name}:${port}`);
    } else hosts.add(`${host.includes(':') ? `[${host}]` : host}:${port}`);
    if (config.publicUrl) {
      const url = new URL(config.publicUrl);
      hosts.add(`${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`);
    }
    return [...hosts];
  }

  /** The administrator's Basic credentials and console sessions, one for every service (its Basic cache too). */
  private get adminAccess(): AdminAccess {
    this.admin ??= new AdminAccess(this.container.resolve<Accounts>('accounts'));
    return this.admin;
  }

  private async discover(): Promise<PluginDescriptor[]> {
    const rt = this.config.runtime;
    const { plugins: found } = await scanLoaderPath(rt.loaderPath, path.join(rt.dataDir, 'plugin-cache'));
    const ordered = selectAndOrder(found, rt.plugins, rt.loaderPath);
    for (const descriptor of ordered) {
      checkRuntimeRange(descriptor);
      if (!this.config.services[descriptor.manifest.service]) {
        throw bootErrors.unknownService(
          descriptor.manifest.name,
          descriptor.manifest.service,
          Object.keys(this.config.services),
        );
      }
    }
    for (const { origin, manifestFile, manifest } of ordered) {
      // The first start from an archive unpacks it (tens of MB for search): say so rather than sit silent.
      if (origin.kind === 'archive' && !existsSync(manifestFile)) {
        this.logger.info(
          { plugin: manifest.name, archive: origin.path },
          `unpacking plugin ${manifest.name} from its archive into the plugin cache (first start only)`,
        );
      }
    }
    return unpackSelected(ordered);
  }

  /** Validate each plugin's config section, then import its entry module. */
  private async load(descriptors: PluginDescriptor[]): Promise<void> {
    const moved = moveFormerConfig(
      this.config.plugins,
      descriptors.map((d) => d.manifest),
      this.logger,
    );
    const sections = descriptors.map((d) => this.pluginConfig(d, moved));
    const runtime: RuntimeInfo = Object.freeze({
      name: RUNTIME_NAME,
      version: RUNTIME_VERSION,
      seed: this.config.runtime.seed && (!this.worker || this.worker.owner),
      ...(this.worker ? { worker: Object.freeze({ ...this.worker }) } : {}),
    });
    const tableOwners = ['runtime', ...descriptors.map((d) => d.manifest.name)];
    for (const [i, descriptor] of descriptors.entries()) {
      const definition = await importEntry(descriptor);
      const { manifest } = descriptor;
      const server = this.serviceFor(manifest.service);
      server.addPlugin(manifest.name);
      const { ctx, scope } = createPluginContext(descriptor, {
        root: this.container,
        hooks: this.hookBus,
        server,
        logger: this.logger,
        dataDir: this.config.runtime.dataDir,
        config: sections[i]!,
        runtime,
        tableOwners,
      });
      this.plugins.push({
        descriptor,
        definition,
        lifecycle: {},
        ctx,
        scope,
        started: false,
        timing: {
          plugin: manifest.name,
          version: manifest.version,
          service: manifest.service,
          origin: descriptor.origin.kind,
          ms: {},
        },
      });
    }
  }

  private pluginConfig(
    descriptor: PluginDescriptor,
    sections: Record<string, Record<string, unknown>>,
  ): Record<string, unknown> {
    const { manifest } = descriptor;
    const section = sections[manifest.name] ?? {};
    if (!manifest.configSchema) {
      if (Object.keys(section).length > 0) {
        throw bootErrors.configInvalid(`plugins.${manifest.name}`, [
          `plugin "${manifest.name}" takes no configuration, got ${Object.keys(section).join(', ')}`,
        ]);
      }
      return {};
    }
    const schema = readJsonSchema(resolveInPlugin(descriptor, manifest.configSchema), descriptor.manifestFile);
    const result = validateAgainst<Record<string, unknown>>(schema, section, {
      applyDefaults: true,
      root: `plugins.${manifest.name}`,
    });
    if (!result.valid) throw bootErrors.configInvalid(`plugins.${manifest.name}`, result.problems);
    return result.value;
  }

  private serviceFor(name: string): ServiceServer {
    let server = this.services.get(name);
    if (!server) {
      server = new ServiceServer(
        name,
        this.config.services[name]!,
        this.hooks,
        this.logger.child({ service: name }),
        () => this.adminAccess,
      );
      // One of several worker processes: the cluster's secret is a key on every service, for calls between them.
      const secret = this.worker?.secret;
      if (secret)
        server.access.acceptKeys('runtime', (key) =>
          sameSecret(key, secret) ? { username: 'cluster', via: 'key' } : null,
        );
      this.services.set(name, server);
    }
    return server;
  }

  private register(): void {
    for (const plugin of this.plugins) {
      const began = performance.now();
      let result: unknown;
      try {
        result = plugin.definition.register(plugin.ctx);
      } catch (error) {
        if (error instanceof VelaError) throw error;
        throw bootErrors.pluginEntry(plugin.descriptor.manifestFile, `register failed: ${(error as Error).message}`);
      }
      plugin.lifecycle = lifecycleOf(result, plugin.descriptor.manifestFile);
      plugin.timing.ms.register = round(performance.now() - began);
    }
    for (const plugin of this.plugins) {
      const { manifest } = plugin.descriptor;
      const undeclared = this.hookBus.missingDeclarations(manifest.name, manifest.hooks);
      if (undeclared.length > 0) {
        throw bootErrors.hookDeclaration(
          manifest.name,
          `manifest lists hooks it never declared in register(): ${undeclared.join(', ')}`,
        );
      }
      const notProvided = manifest.provides.filter((s) => !this.container.hasRegistration(s));
      if (notProvided.length > 0)
        throw bootErrors.serviceUndeclared(
          manifest.name,
          `${notProvided.join(', ')} (listed in "provides" but never provided)`,
        );
    }
    for (const plugin of this.plugins) {
      const missing = plugin.scope.unprovided();
      if (missing.length > 0) throw bootErrors.serviceNotProvided(plugin.descriptor.manifest.name, missing.join(', '));
    }
    this.hookBus.applyPendingTaps();
  }

  private async migrate(): Promise<number> {
    const db = this.db;
    const began = performance.now();
    await migrateOwner(db, 'runtime', RUNTIME_MIGRATIONS);
    const { admin } = this.config.runtime;
    this.generatedPassword = await this.container
      .resolve<Accounts>('accounts')
      .ensureAdministrator(admin.user, admin.password);
    const runtimeMs = performance.now() - began;
    for (const plugin of this.plugins) {
      const dir = plugin.descriptor.manifest.migrations;
      if (!dir) continue;
      await this.phase(plugin, 'migrate', this.config.runtime.phaseTimeoutMs, async () => {
        const report = await migrateOwner(db, plugin.descriptor.manifest.name, resolveInPlugin(plugin.descriptor, dir));
        if (report.applied.length > 0) plugin.ctx.logger.info({ migrations: report.applied }, 'migrations applied');
      });
    }
    return runtimeMs;
  }

  /**
   * A generated password is shown once the start has come up, so that it is never shown for an account that is then
   * lost.
   */
  private announceGeneratedPassword(): void {
    if (this.generatedPassword)
      this.container
        .resolve<Accounts>('accounts')
        .announceGenerated(this.config.runtime.admin.user, this.generatedPassword);
  }

  /** A start that did not come up does not keep the administrator it created with a password nobody was shown. */
  private async withdrawGeneratedPassword(): Promise<void> {
    const password = this.generatedPassword;
    if (!password) return;
    this.generatedPassword = null;
    await this.container
      .resolve<Accounts>('accounts')
      .withdrawGenerated(this.config.runtime.admin.user, password)
      .catch((e: Error) =>
        this.logger.error({ err: e }, 'the administrator created by this failed start could not be removed'),
      );
  }

  private async startPlugins(): Promise<void> {
    for (const plugin of this.plugins) {
      mkdirSync(plugin.ctx.dataDir, { recursive: true });
      plugin.started = true;
      if (plugin.lifecycle.start)
        await this.phase(plugin, 'start', this.config.runtime.phaseTimeoutMs, () => plugin.lifecycle.start!());
    }
  }

  private async listen(): Promise<void> {
    await this.changesFollowed();
    for (const server of this.services.values()) await server.listen();
  }

  /**
   * When plugins follow the other processes' changes (PostgreSQL LISTEN), serve once notices arrive: one
   * sent in between would otherwise wait for the plugins' poll. Bounded: a feed that cannot connect yet
   * keeps retrying while this process serves, and the polls cover what it misses.
   */
  private async changesFollowed(): Promise<void> {
    if (!this.container.cache.has('changes')) return;
    const feed = this.container.resolve<ChangeFeed>('changes');
    let timer: NodeJS.Timeout | undefined;
    const listening = await Promise.race([
      feed.ready().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), CHANGES_READY_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!listening)
      this.logger.warn(
        { waitedMs: CHANGES_READY_MS },
        'not receiving change notices yet; serving anyway (the polls cover what is missed)',
      );
  }

  private async phase(plugin: LoadedPlugin, phase: Phase, timeoutMs: number, work: () => unknown): Promise<void> {
    const began = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(work),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(bootErrors.phaseTimeout(plugin.descriptor.manifest.name, phase, timeoutMs)),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      if (error instanceof VelaError) throw error;
      throw bootErrors.pluginEntry(plugin.descriptor.manifestFile, `${phase} failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
      plugin.timing.ms[phase] = round(performance.now() - began);
    }
  }

  private buildTree(totalMs: number, runtimeMigrateMs: number): BootTree {
    return {
      totalMs: round(totalMs),
      runtimeMigrateMs: round(runtimeMigrateMs),
      services: [...this.services.values()].map((s) => ({
        name: s.name,
        url: s.address().url,
        listening: s.address().listening,
        plugins: this.plugins.filter((p) => p.descriptor.manifest.service === s.name).map((p) => p.timing),
      })),
    };
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function importEntry(descriptor: PluginDescriptor): Promise<PluginDefinition> {
  const entry = resolveInPlugin(descriptor, descriptor.manifest.main);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  } catch (error) {
    throw bootErrors.pluginEntry(
      descriptor.manifestFile,
      `cannot load main ${descriptor.manifest.main}: ${(error as Error).message}`,
    );
  }
  const definition = mod.default as (PluginDefinition & { start?: unknown; stop?: unknown }) | undefined;
  if (!definition || typeof definition.register !== 'function') {
    throw bootErrors.pluginEntry(
      descriptor.manifestFile,
      `main ${descriptor.manifest.main} must export default a plugin definition with register(ctx)`,
    );
  }
  if (definition.start !== undefined || definition.stop !== undefined) {
    throw bootErrors.pluginEntry(
      descriptor.manifestFile,
      'start and stop belong in the object register(ctx) returns ({ start() {...}, stop() {...} }), not beside register',
    );
  }
  checkConsumes(descriptor, definition.consumes);
  return definition;
}

/**
 * A definition that declares `consumes` in code must list what plugin.json does (order aside): the code is typed by
 * one, the loader enforces the other.
 */
function checkConsumes(descriptor: PluginDescriptor, declared: unknown): void {
  if (declared === undefined) return;
  const listed = descriptor.manifest.consumes;
  const same =
    Array.isArray(declared) &&
    declared.length === listed.length &&
    [...declared].sort().every((entry, i) => entry === [...listed].sort()[i]);
  if (!same)
    throw bootErrors.consumesMismatch(
      descriptor.manifestFile,
      listed,
      Array.isArray(declared) ? declared.map(String) : [String(declared)],
    );
}

/** What register returned: nothing, or the plugin's lifecycle functions. */
function lifecycleOf(result: unknown, manifestFile: string): PluginLifecycle {
  if (result === undefined) return {};
  if (typeof (result as Promise<unknown> | null)?.then === 'function')
    throw bootErrors.pluginEntry(manifestFile, 'register() must be synchronous (do I/O in start())');
  const isLifecycle =
    typeof result === 'object' &&
    result !== null &&
    Object.entries(result).every(
      ([key, value]) => (key === 'start' || key === 'stop') && (value === undefined || typeof value === 'function'),
    );
  if (!isLifecycle)
    throw bootErrors.pluginEntry(manifestFile, 'register() must return nothing or { start?(), stop?() }');
  return result as PluginLifecycle;
}

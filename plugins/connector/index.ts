import type { Database, PluginContext, PluginDefinition, RuntimeConfig, Scheduler } from '../../runtime/index.js';
import type { AccessControl } from '../search/auth/access-control.js';
import type { SiteStore } from '../search/store/site-store.js';
import { ConnectorAccess } from './auth/connector-access.js';
import { connectorErrors } from './errors.js';
import { createPooledExtract, EXTRACT_TASK_FILE } from './extraction/pooled-extract.js';
import { createConnectorHooks, type ConnectorHooks } from './hooks.js';
import { RunStore } from './monitoring/run-store.js';
import { RunCoordinator } from './pipeline/run-coordinator.js';
import { RunLeases } from './pipeline/run-leases.js';
import { StatusStore } from './pipeline/status-store.js';
import { mountIndexingRoutes } from './routes/indexing.js';
import { mountMonitoringRoutes } from './routes/monitoring.js';
import { API, type ConnectorDomain } from './routes/route-context.js';
import { mountRuleRoutes } from './routes/rules.js';
import { mountSourceRoutes } from './routes/sources.js';
import { mountSystemInfoRoute } from './routes/system-info.js';
import { RuleStore } from './rules/rule-store.js';
import { HttpTarget } from './search-target/http-target.js';
import { InProcessTarget, type SearchImporter } from './search-target/in-process-target.js';
import type { SearchTarget } from './search-target/search-target.js';
import { seedSample } from './seed/sample-seed.js';
import { filesystemSourceKind } from './sources/filesystem/filesystem-kind.js';
import { jsonlSourceKind } from './sources/jsonl/jsonl-kind.js';
import type { ExtractedContent, ExtractInput } from './sources/source-kind.js';
import { SourceKindRegistry } from './sources/source-kind-registry.js';
import { SourceStore, type Source, type SourceInput } from './sources/source-store.js';
import { webSourceKind } from './sources/web/web-kind.js';

export interface ConnectorConfig {
  apiKeys: string[];
  search: { url: string | null; key: string | null; timeoutMs: number };
  batchSize: number;
  pollMs: number;
  seedSample: boolean;
  sources: SourceInput[];
}

interface Wiring {
  hooks: Readonly<ConnectorHooks>;
  domain: ConnectorDomain;
  leases: RunLeases;
  refreshTimer?: NodeJS.Timeout;
  /** The sample seed, running in the background after ready. */
  seeding?: Promise<void>;
  access: ConnectorAccess;
  scheduled: Set<string>;
}

// One wiring per runtime (tests run several runtimes in one process).
const wirings = new WeakMap<PluginContext<ConnectorConfig>, Wiring>();

/** In-process when the search plugin runs here and no URL is configured; over HTTP when one is. */
function searchTargetOf(ctx: PluginContext<ConnectorConfig>): () => SearchTarget {
  let target: SearchTarget | undefined;
  return () => {
    if (target) return target;
    const { url, key, timeoutMs } = ctx.config.search;
    if (url) target = new HttpTarget({ url, key, timeoutMs });
    else {
      const importer = ctx.tryResolve<SearchImporter>('search.importer');
      const sites = ctx.tryResolve<SiteStore>('search.sites');
      if (!importer || !sites) throw connectorErrors.noSearchService();
      target = new InProcessTarget(importer, sites);
    }
    return target;
  };
}

function createWiring(ctx: PluginContext<ConnectorConfig>, hooks: Readonly<ConnectorHooks>): Wiring {
  const db = ctx.resolve<Database>('db');
  const kinds = new SourceKindRegistry();
  kinds.register(jsonlSourceKind);
  kinds.register(filesystemSourceKind);
  kinds.register(webSourceKind);
  const sources = new SourceStore(db, kinds, ctx.logger);
  const statuses = new StatusStore(db);
  const runs = new RunStore(db);
  const rules = new RuleStore(db);
  const target = searchTargetOf(ctx);
  const extract = createPooledExtract(ctx.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE)) as (input: ExtractInput) => Promise<ExtractedContent>;
  const leases = new RunLeases(db);
  const coordinator = new RunCoordinator(sources, () => ({ kinds, statuses, runs, rules, target: target(), extract, logger: ctx.logger, batchSize: ctx.config.batchSize }), leases, ctx.logger);
  const domain: ConnectorDomain = { kinds, sources, statuses, runs, rules, coordinator, target, dataDir: ctx.dataDir, plugin: { name: ctx.name, version: ctx.version }, logger: ctx.logger };
  const access = new ConnectorAccess(ctx.config.apiKeys, () => ctx.tryResolve<AccessControl>('search.access'));
  return { hooks, domain, access, leases, scheduled: new Set() };
}

/** Keep one cron job per source with a schedule, in step with the source store. */
function scheduleSources(ctx: PluginContext<ConnectorConfig>, wiring: Wiring): void {
  const scheduler = ctx.resolve<Scheduler>('scheduler');
  const jobName = (source: string) => `connector.source:${source}`;
  wiring.domain.sources.onChange((name: string, source: Source | null) => {
    if (wiring.scheduled.delete(name)) scheduler.remove(jobName(name));
    if (!source?.schedule) return;
    scheduler.add(jobName(name), source.schedule, () => wiring.domain.coordinator.scheduled(name));
    wiring.scheduled.add(name);
  });
}

const plugin: PluginDefinition<ConnectorConfig> = {
  register(ctx) {
    const wiring = createWiring(ctx, ctx.hooks.declare(createConnectorHooks));
    wirings.set(ctx, wiring);
    const { domain } = wiring;
    ctx.provide('connector.runs', () => domain.coordinator);
    ctx.provide('connector.access', () => wiring.access);
    ctx.openapi.addSecurityScheme('Key', { type: 'apiKey', in: 'header', name: 'Key' });
    ctx.health('database', async () => {
      await ctx.resolve<Database>('db').raw('select 1');
      return { status: 'UP' };
    });
    ctx.routes((router) => {
      router.use(wiring.access.middleware([API]));
      mountIndexingRoutes(router, domain);
      mountMonitoringRoutes(router, domain);
      mountRuleRoutes(router, domain);
      mountSourceRoutes(router, domain);
      mountSystemInfoRoute(router, domain);
    });
    // Seed once the services listen (an HTTP search service configured as the target can answer then), in
    // the background: the start is over at ready, and signals must find the runtime's handlers in place.
    ctx.hooks.tapPromise('runtime.ready', 'seed-sample', async () => {
      if (!ctx.config.seedSample || !ctx.resolve<RuntimeConfig>('config').runtime.seed) return;
      wiring.seeding = Promise.resolve()
        .then(() => seedSample({ db: ctx.resolve<Database>('db'), sources: domain.sources, runs: domain.runs, coordinator: domain.coordinator, target: domain.target(), logger: ctx.logger }))
        .catch((error: Error) => ctx.logger.warn({ err: error }, 'the sample source could not be seeded; start with --no-seed to skip it'));
    });
  },

  async start(ctx) {
    const wiring = wirings.get(ctx)!;
    const { domain } = wiring;
    // Kinds of other plugins join here: every plugin's taps are applied before start.
    wiring.hooks.sourceKinds.call(domain.kinds);
    scheduleSources(ctx, wiring);
    const interrupted = await domain.runs.markInterrupted(await wiring.leases.reclaim());
    if (interrupted > 0) ctx.logger.warn({ runs: interrupted }, 'runs interrupted by the last stop are marked INTERRUPTED; the next run reconciles');
    await domain.sources.load(ctx.config.sources);
    // Processes sharing the database see each other's source changes within a poll.
    if (ctx.config.pollMs > 0) {
      wiring.refreshTimer = setInterval(() => {
        domain.sources.refresh().catch((error: Error) => ctx.logger.warn({ err: error }, 'refreshing sources failed'));
      }, ctx.config.pollMs);
      wiring.refreshTimer.unref();
    }
  },

  stop: async (ctx) => {
    const wiring = wirings.get(ctx);
    clearInterval(wiring?.refreshTimer);
    await wiring?.seeding;
    await wiring?.domain.coordinator.stop();
  },
};

export default plugin;

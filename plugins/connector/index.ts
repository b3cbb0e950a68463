import { createPooledExtract, EXTRACT_TASK_FILE } from '@vela/extraction';
import { definePlugin, type PluginContext, StoreRefresh } from 'vela/plugin';
import type { ExtractedContent, ExtractInput, SourceKinds } from './api.js';
import { connectorKeys } from './auth/connector-keys.js';
import { mountConsole } from './console/mount-console.js';
import { connectorErrors } from './errors.js';
import { createConnectorHooks } from './hooks.js';
import { RunStore } from './monitoring/run-store.js';
import type { RunDependencies } from './pipeline/index-run.js';
import { RunCoordinator } from './pipeline/run-coordinator.js';
import { RunLeases } from './pipeline/run-leases.js';
import { StatusStore } from './pipeline/status-store.js';
import { mountIndexingRoutes } from './routes/indexing.js';
import { mountMonitoringRoutes } from './routes/monitoring.js';
import type { ConnectorDomain } from './routes/route-context.js';
import { mountRuleRoutes } from './routes/rules.js';
import { mountSourceRoutes } from './routes/sources.js';
import { mountSystemInfoRoute } from './routes/system-info.js';
import { RuleStore } from './rules/rule-store.js';
import { HttpTarget } from './search-target/http-target.js';
import { InProcessTarget } from './search-target/in-process-target.js';
import type { SearchTarget } from './search-target/search-target.js';
import { seedSample } from './seed/sample-seed.js';
import { filesystemSourceKind } from './sources/filesystem/filesystem-kind.js';
import { jsonlSourceKind } from './sources/jsonl/jsonl-kind.js';
import { PluginSources } from './sources/plugin-sources.js';
import { SourceKindRegistry } from './sources/source-kind-registry.js';
import { type Source, type SourceInput, SourceStore } from './sources/source-store.js';
import { webSourceKind } from './sources/web/web-kind.js';

export interface ConnectorConfig {
  apiKeys: string[];
  search: { url: string | null; key: string | null; timeoutMs: number };
  batchSize: number;
  progressMs: number;
  /** Largest image (or image drawn in a PDF, or PDF page as rendered) its sources extract, in pixels. */
  maxImagePixels: number;
  pollMs: number;
  seedSample: boolean;
  sources: SourceInput[];
}

/**
 * Over HTTP when a URL is configured; else in-process when the search plugin runs here; else (vela start
 * --split-services) the search service of this machine's cluster, with the cluster's key.
 */
function searchTargetOf(ctx: PluginContext<ConnectorConfig, typeof consumes>): () => SearchTarget {
  let target: SearchTarget | undefined;
  return () => {
    if (target) return target;
    const { url, key, timeoutMs } = ctx.config.search;
    const importer = ctx.tryResolve('search.importer');
    const sites = ctx.tryResolve('search.sites');
    const cluster = ctx.runtime.worker;
    if (url) target = new HttpTarget({ url, key, timeoutMs });
    else if (importer && sites) target = new InProcessTarget(importer, sites);
    else if (cluster?.services.search)
      target = new HttpTarget({ url: cluster.services.search, key: cluster.secret, timeoutMs });
    else throw connectorErrors.noSearchService();
    return target;
  };
}

function createDomain(
  ctx: PluginContext<ConnectorConfig, typeof consumes>,
  announceSources: () => Promise<unknown>,
): ConnectorDomain {
  const db = ctx.resolve('db');
  const kinds = new SourceKindRegistry();
  kinds.register(jsonlSourceKind);
  kinds.register(filesystemSourceKind);
  kinds.register(webSourceKind);
  const sources = new SourceStore(db, kinds, ctx.logger, announceSources);
  const statuses = new StatusStore(db);
  const runs = new RunStore(db);
  const rules = new RuleStore(db);
  const target = searchTargetOf(ctx);
  const pooled = createPooledExtract(ctx.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE)) as (
    input: ExtractInput,
  ) => Promise<ExtractedContent>;
  const { maxImagePixels } = ctx.config;
  const extract = (input: ExtractInput) => pooled({ ...input, ocr: { ...input.ocr, maxImagePixels } });
  const leases = new RunLeases(db);
  // Resolved when first used: the outbound guard is created then.
  const outbound = () => ctx.resolve('outbound');
  const fetch: RunDependencies['fetch'] = (url, init) => outbound().fetch(url, init);
  const coordinator = new RunCoordinator(
    sources,
    () => ({
      kinds,
      statuses,
      runs,
      rules,
      target: target(),
      extract,
      fetch,
      logger: ctx.logger,
      batchSize: ctx.config.batchSize,
      progressMs: ctx.config.progressMs,
    }),
    leases,
    ctx.logger,
  );
  return {
    kinds,
    sources,
    statuses,
    runs,
    rules,
    coordinator,
    leases,
    target,
    outbound,
    dataDir: ctx.dataDir,
    host: ctx.runtime,
    plugin: { name: ctx.name, version: ctx.version },
    logger: ctx.logger,
  };
}

/** Keep one cron job per source with a schedule, in step with the source store. */
function scheduleSources(ctx: PluginContext<ConnectorConfig, typeof consumes>, domain: ConnectorDomain): void {
  const scheduler = ctx.resolve('scheduler');
  const scheduled = new Set<string>();
  const jobName = (source: string) => `connector.source:${source}`;
  domain.sources.onChange((name: string, source: Source | null) => {
    if (scheduled.delete(name)) scheduler.remove(jobName(name));
    if (!source?.schedule) return;
    scheduler.add(jobName(name), source.schedule, () => domain.coordinator.scheduled(name));
    scheduled.add(name);
  });
}

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = [
  'db',
  'accounts',
  'workers',
  'scheduler',
  'outbound',
  'changes',
  'search.importer?',
  'search.sites?',
  'search.keys?',
] as const;

export default definePlugin<ConnectorConfig, typeof consumes>({
  consumes,
  register(ctx) {
    const hooks = ctx.hooks.declare(createConnectorHooks());
    // Processes sharing the database see each other's source changes at once, and within a poll when a notice is lost.
    const sourcesRefresh = new StoreRefresh({
      what: 'sources',
      channels: ['connector.sources'],
      changes: ctx.resolve('changes'),
      pollMs: ctx.config.pollMs,
      logger: ctx.logger,
      reload: () => domain.sources.refresh(),
    });
    const domain = createDomain(ctx, () => sourcesRefresh.announce());
    const { sources, runs, coordinator } = domain;
    ctx.provide('connector.runs', () => coordinator);
    ctx.provide('connector.sources', () => new PluginSources(domain));
    ctx.access.acceptKeys(connectorKeys(ctx.config.apiKeys, () => ctx.tryResolve('search.keys')));
    // On SQLite the database is a file of this process: busy during a long import, never unreachable.
    if (ctx.resolve('db').client.dialect === 'postgresql') {
      ctx.health('database', async () => {
        await ctx.resolve('db').raw('select 1');
        return { status: 'UP' };
      });
    }
    ctx.routes((router) => {
      mountIndexingRoutes(router, domain);
      mountMonitoringRoutes(router, domain);
      mountRuleRoutes(router, domain);
      mountSourceRoutes(router, domain);
      mountSystemInfoRoute(router, domain);
      mountConsole(router, ctx.resolve('accounts'));
    });
    // Seed once the services listen (an HTTP search service configured as the target can answer then), in
    // the background: the start is over at ready, and signals must find the runtime's handlers in place.
    let seeding: Promise<void> | undefined;
    ctx.hooks.tapPromise('runtime.ready', 'seed-sample', async () => {
      if (!ctx.config.seedSample || !ctx.runtime.seed) return;
      seeding = Promise.resolve()
        .then(() =>
          seedSample({
            db: ctx.resolve('db'),
            sources,
            runs,
            coordinator,
            target: domain.target(),
            logger: ctx.logger,
          }),
        )
        .catch((error: Error) =>
          ctx.logger.warn({ err: error }, 'the sample source could not be seeded; start with --no-seed to skip it'),
        );
    });

    return {
      async start() {
        // Kinds of other plugins join here: every plugin's taps are applied before start.
        hooks.sourceKinds.call(domain.kinds satisfies SourceKinds);
        scheduleSources(ctx, domain);
        const interrupted = await runs.markInterrupted(await domain.leases.reclaim());
        if (interrupted > 0)
          ctx.logger.warn(
            { runs: interrupted },
            'runs interrupted by the last stop are marked INTERRUPTED; the next run reconciles',
          );
        await sources.load(ctx.config.sources);
        sourcesRefresh.start();
      },
      async stop() {
        sourcesRefresh.stop();
        await seeding;
        await coordinator.stop();
      },
    };
  },
});

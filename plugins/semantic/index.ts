import path from 'node:path';
import type {} from '@vela/plugin-genai/api';
import type {} from '@vela/plugin-search/api';
import { definePlugin, StoreRefresh } from 'vela/plugin';
import { mountConsolePages } from './console/mount-console.js';
import type { EmbedInput, TrainInput, TrainOutput } from './embedders/builtin-task.js';
import { EmbedderCache } from './embedders/embedder-cache.js';
import { EmbeddingJob } from './indexing/embedding-job.js';
import { type BuiltinConfig, ModelPlanner } from './indexing/model-planner.js';
import { SemanticIndexer } from './indexing/semantic-indexer.js';
import { SiteDocuments } from './indexing/site-documents.js';
import { SemanticRetriever } from './retrieval/semantic-retriever.js';
import { VectorIndexes } from './retrieval/vector-indexes.js';
import { mountSemanticRoutes } from './routes/semantic-routes.js';
import { monitoringOf } from './routes/site-monitoring.js';
import { seedSampleSite } from './sample-site.js';
import { EmbeddingStates } from './store/embedding-states.js';
import { ModelStore } from './store/model-store.js';
import { openVectorStore } from './store/pgvector.js';
import { exportSemanticSettings, importSemanticSettings } from './store/settings-exchange.js';
import { SemanticSettingsStore } from './store/settings-store.js';
import { VectorStore } from './store/vector-store.js';

export interface SemanticConfig {
  enabledByDefault: boolean;
  sampleSite: string | null;
  batchSize: number;
  pollMs: number;
  claimSeconds: number;
  builtin: BuiltinConfig;
}

/** What it resolves, as plugin.json lists it (the loader checks they match). */
const consumes = [
  'db',
  'workers',
  'changes',
  'search.sites',
  'search.service',
  'search.importer',
  'search.console',
  'genai.embeddings?',
] as const;

/** A query embedded by an LLM instance waits at most this long before the search goes on without vectors. */
const QUERY_TIMEOUT_MS = 10_000;

export default definePlugin<SemanticConfig, typeof consumes>({
  consumes,
  register(ctx) {
    const db = ctx.resolve('db');
    const sites = () => ctx.resolve('search.sites');
    const genai = () => ctx.resolve('genai.embeddings');
    const refresh = new StoreRefresh({
      what: 'semantic settings',
      channels: ['semantic.settings'],
      changes: ctx.resolve('changes'),
      pollMs: ctx.config.pollMs * 5,
      logger: ctx.logger,
      reload: () => settings.load(),
    });
    const settings = new SemanticSettingsStore(db, ctx.logger, ctx.config.enabledByDefault, () => refresh.announce());
    const models = new ModelStore(db);
    const states = new EmbeddingStates(db);
    const embedTask = ctx.task<EmbedInput, Array<Float32Array | null>>(
      new URL('./embedders/builtin-task.ts', import.meta.url),
      'embed',
    );
    const trainTask = ctx.task<TrainInput, TrainOutput>(
      new URL('./embedders/builtin-task.ts', import.meta.url),
      'train',
    );
    const embedders = new EmbedderCache(models, path.join(ctx.dataDir, 'models'), embedTask, genai);
    const documents = new SiteDocuments(
      sites,
      () => ctx.resolve('search.service'),
      () => ctx.resolve('search.importer'),
    );
    const planner = new ModelPlanner({
      models,
      embedders,
      documents,
      train: trainTask,
      genai,
      builtin: ctx.config.builtin,
      logger: ctx.logger,
    });
    // Vectors are searched in SQL when the search engine keeps its indexes in PostgreSQL: search processes then
    // keep no state of their own. Known once the search plugin calls search.engines at its start.
    let inSql = false;
    ctx.hooks.tap('search.engines', 'semantic', (engines) => {
      inSql = engines.configured !== 'memory' && db.client.dialect === 'postgresql';
    });
    let indexer: SemanticIndexer | null = null;
    let retriever: SemanticRetriever | null = null;
    // Made at start, once pgvector's presence is known; until then nothing reads or writes vectors.
    const build = (vectors: VectorStore) => {
      const indexes = inSql ? null : new VectorIndexes(vectors, path.join(ctx.dataDir, 'indexes'), ctx.logger);
      const job = new EmbeddingJob({
        db,
        states,
        vectors,
        embedders,
        documents,
        settings: (siteId) => settings.forSite(siteId),
        logger: ctx.logger,
        batchSize: ctx.config.batchSize,
        claimMs: ctx.config.claimSeconds * 1000,
      });
      indexer = new SemanticIndexer({
        sites,
        settings: (siteId) => settings.forSite(siteId),
        documents,
        planner,
        job,
        models,
        states,
        vectors,
        embedders,
        indexes,
        logger: ctx.logger,
        pollMs: ctx.config.pollMs,
      });
      retriever = new SemanticRetriever({
        statusOf: (siteId, locale) => indexer!.statusOf(siteId, locale),
        embedders,
        vectors,
        indexes,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
      });
    };
    const notReady = { ready: false as const, reason: 'semantic search is starting' };
    ctx.hooks.tap('search.vectors', 'semantic', (registry) =>
      registry.register('semantic', {
        status: (siteId, locale) => retriever?.status(siteId, locale) ?? notReady,
        nearest: async (siteId, locale, text, k) => (retriever ? retriever.nearest(siteId, locale, text, k) : []),
        similar: async (siteId, locale, ids, k) => (retriever ? retriever.similar(siteId, locale, ids, k) : []),
      }),
    );
    let sampleSeeded = true;
    const seedSample = () => seedSampleSite(settings, sites(), ctx.config.sampleSite!);
    // Index changes that arrive before this plugin's start (the search plugin replays its log at its start) wait.
    const early: Parameters<SemanticIndexer['onIndexed']>[0][] = [];
    ctx.hooks.tap('search.indexed', 'semantic', (change) => {
      if (!sampleSeeded && indexer) {
        sampleSeeded = true;
        void seedSample().then(
          (siteId) => {
            sampleSeeded = siteId !== null;
            if (siteId) indexer?.refreshSite(siteId);
          },
          (err: unknown) => ctx.logger.warn({ err }, 'sample site: semantic search not turned on'),
        );
      }
      if (indexer) indexer.onIndexed(change);
      else early.push(change);
    });
    ctx.hooks.tapPromise('search.monitoring', 'semantic', async ({ siteId, report }) => {
      // A site that never had semantic search on keeps the report it had without this plugin.
      const mine = settings.forSite(siteId);
      if (indexer && (mine.enabled || mine.custom))
        report.semantic = await monitoringOf(mine, states, indexer, siteId, sites());
    });
    // A site's settings travel with its export (member `semantic`), an LLM instance as embedder by id and title.
    const embeddingInstances = () => genai()?.instances() ?? [];
    ctx.hooks.tap('search.siteExport', 'semantic', (site) =>
      exportSemanticSettings(settings, embeddingInstances, site),
    );
    ctx.hooks.tapPromise('search.siteImport', 'semantic', async (site) => {
      await importSemanticSettings(settings, embeddingInstances, site);
      indexer?.refreshSite(site.siteId);
    });
    ctx.hooks.tapPromise('search.siteDeleted', 'semantic', async ({ siteId }) => {
      await indexer?.forgetSite(siteId);
      await settings.prune((id) => sites().find(id) !== null);
    });
    ctx.routes((router) => {
      mountConsolePages(router, ctx.resolve('search.console'));
      mountSemanticRoutes(router, {
        sites,
        settings,
        states,
        indexer: {
          statusOf: (siteId, locale) => indexer!.statusOf(siteId, locale),
          refreshSite: (siteId) => indexer?.refreshSite(siteId),
        },
        planner,
        genai,
      });
    });

    return {
      async start() {
        await settings.load();
        refresh.start();
        // pgvector serves only searches in SQL: with vectors in memory its column would be written for nothing.
        build(inSql ? await openVectorStore(db) : new VectorStore(db));
        sampleSeeded = !ctx.runtime.seed || !ctx.config.sampleSite || (await seedSample()) !== null;
        for (const change of early.splice(0)) indexer!.onIndexed(change);
        await indexer!.start();
      },
      async stop() {
        refresh.stop();
        await indexer?.stop();
      },
    };
  },
});

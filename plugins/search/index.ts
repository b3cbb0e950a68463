import path from 'node:path';
import { definePlugin, type PluginContext } from 'vela/plugin';
import type { SearchHooks } from './api.js';
import { ApiTokens } from './auth/api-tokens.js';
import { SPELL_CHECKER_LOCALES, type SpellCheckerInput } from './cognitive/spell-checker-task.js';
import { mountConsole, searchConsole } from './console/mount-console.js';
import { ChosenEngineFactory, EngineRegistry } from './engine/engine-registry.js';
import { memoryEngineFactory } from './engine/memory-engine.js';
import { createSearchHooks } from './hooks.js';
import { Importer } from './indexing/importer.js';
import { IndexManager } from './indexing/index-manager.js';
import { SnapshotFiles, SnapshotLease } from './indexing/snapshot-files.js';
import { AnswerCache, followSiteChanges } from './query/answer-cache.js';
import { SearchService } from './query/search-service.js';
import { siteSearch } from './query/site-search.js';
import { VectorRetrieverSlot } from './query/vector-retrievers.js';
import { mountFieldRoutes } from './routes/fields.js';
import { mountGuestRoutes } from './routes/guest.js';
import { mountImportRoutes } from './routes/import.js';
import type { SearchDomain } from './routes/route-context.js';
import { mountSamplePage } from './routes/sample-page.js';
import { mountSearchRoutes } from './routes/search.js';
import { mountSiteRoutes } from './routes/sites.js';
import { mountSpotlightRoutes } from './routes/spotlights.js';
import { mountCognitiveRoutes, mountSuggestRoutes } from './routes/suggest.js';
import { mountSystemCacheRoutes } from './routes/system-cache.js';
import { mountTokenRoutes } from './routes/tokens.js';
import { SpotlightStore } from './spotlights/spotlight-store.js';
import { followChanges } from './store/change-notices.js';
import { DocumentStore } from './store/document-store.js';
import { siteDirectory } from './store/site-directory.js';
import { SiteStore } from './store/site-store.js';

interface SearchConfig {
  /**
   * `memory`, or a name an engine plugin registers through the search.engines hook (`postgres`: the search-postgres
   * plugin).
   */
  engine: string;
  indexer: { batchSize: number; pollMs: number; snapshotDelayMs: number };
  pageCache: { documents: number };
  answerCache: { megabytes: number };
}

/**
 * The engines the configured name may choose: the built-in memory one, then (at start) those engine plugins
 * register (the search-postgres plugin's `postgres` among them).
 */
function builtInEngines(ctx: PluginContext<SearchConfig, typeof consumes>): EngineRegistry {
  const engines = new EngineRegistry(ctx.config.engine);
  engines.registerBuiltIn('memory', () => memoryEngineFactory);
  return engines;
}

/** Build the plugin's objects; constructors do no I/O, so this is fine in register. */
function createDomain(
  ctx: PluginContext<SearchConfig, typeof consumes>,
  engine: ChosenEngineFactory,
  hooks: Pick<SearchHooks, 'indexed'>,
  vectors: VectorRetrieverSlot,
): SearchDomain {
  const db = ctx.resolve('db');
  const sites = new SiteStore(db, ctx.logger);
  const docs = new DocumentStore(db, ctx.config.pageCache.documents);
  // Worker processes on one machine (vela start --workers) share one folder: each starts from it, only the
  // lease holder writes it, and only a group's owner worker (or a lone process) may take the lease.
  // An engine plugin's snapshots (its own format) are kept apart, so switching engines never restores another's.
  const folder = path.join(
    ctx.dataDir,
    ctx.config.engine === 'memory' ? 'snapshots' : `snapshots-${ctx.config.engine}`,
  );
  const snapshots = new SnapshotFiles(folder, new SnapshotLease(folder, ctx.runtime.worker?.owner ?? true));
  const indexes = new IndexManager(sites, docs, engine, snapshots, ctx.logger, ctx.config.indexer, hooks.indexed);
  const spotlights = new SpotlightStore(db, sites, ctx.logger);
  const answers = new AnswerCache(ctx.config.answerCache.megabytes * 2 ** 20);
  followSiteChanges(answers, { sites, indexes, spotlights });
  return {
    sites,
    docs,
    indexes,
    spotlights,
    answers,
    // Other processes write the same sites over PostgreSQL, or as workers of one SQLite file (the feed's modes).
    search: new SearchService(
      sites,
      docs,
      indexes,
      spotlights,
      () => ctx.config.indexer.pollMs > 0 && ctx.resolve('changes').mode !== 'process',
      vectors,
    ),
    importer: new Importer(sites, docs, indexes, spotlights),
    tokens: new ApiTokens(db, ctx.logger),
  };
}

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['accounts', 'db', 'workers', 'changes'] as const;

export default definePlugin<SearchConfig, typeof consumes>({
  consumes,
  register(ctx) {
    const hooks = ctx.hooks.declare(createSearchHooks());
    const engines = builtInEngines(ctx);
    const engine = new ChosenEngineFactory();
    const vectors = new VectorRetrieverSlot();
    const domain = createDomain(ctx, engine, hooks, vectors);
    const { sites, tokens, indexes } = domain;
    // Taps that keep something per site forget it when the site goes, deleted here or by another process.
    sites.onChange(async (change) => {
      if (change.kind === 'site-deleted' && hooks.siteDeleted.isUsed())
        await hooks.siteDeleted.promise({ siteId: change.siteId });
    });
    ctx.provide('search.sites', () => siteDirectory(sites));
    ctx.provide('search.service', () => siteSearch(domain.search, domain.docs));
    ctx.provide('search.importer', () => domain.importer);
    ctx.provide('search.keys', () => tokens);
    // The console at /console/, which plugins on the search service extend with their pages.
    const consoleKit = searchConsole(ctx.resolve('accounts'));
    ctx.provide('search.console', () => consoleKit);
    // The Key header on the search service (and every plugin mounted on it) means one of these tokens.
    ctx.access.acceptKeys((key) => tokens.verifyOrLookup(key));
    ctx.routes((router) => {
      // Each mount gets the services it reads, no more.
      const searching = { answers: domain.answers, search: domain.search, sites, searched: hooks.searched };
      // The search routes first: express tries a request against every route before its own, and the search
      // is the hot one (the walk over the routes before it was 3 to 6% of a search in a CPU profile).
      mountSearchRoutes(router, searching);
      mountGuestRoutes(router, searching);
      mountConsole(router, consoleKit);
      mountImportRoutes(router, { importer: domain.importer });
      mountSiteRoutes(router, { sites, indexes, docs: domain.docs, spotlights: domain.spotlights, hooks });
      mountFieldRoutes(router, { sites });
      mountSpotlightRoutes(router, { sites, spotlights: domain.spotlights });
      // After the other /api/sn/<site>/<segment>/... routes: /api/sn/<site>/<locale>/spell-check takes any segment.
      mountSuggestRoutes(router, { search: domain.search, indexes });
      mountCognitiveRoutes(
        router,
        ctx.task<SpellCheckerInput, string[]>(new URL('./cognitive/spell-checker-task.ts', import.meta.url)),
        Object.keys(SPELL_CHECKER_LOCALES),
      );
      mountTokenRoutes(router, { tokens });
      mountSystemCacheRoutes(router, { answers: domain.answers, docs: domain.docs });
      mountSamplePage(router, { sites });
    });
    ctx.health('indexes', () => ({
      status: 'UP',
      details: { sites: sites.list().length, appliedSeq: indexes.appliedSeq },
    }));
    // Searches go on from memory while the database is away (those whose documents are not cached get a
    // 503), but imports and admin writes cannot: a load balancer should know (docs/scaling.md).
    // On SQLite the database is a file of this process: busy during a long import, never unreachable.
    if (ctx.resolve('db').client.dialect === 'postgresql') {
      ctx.health('database', async () => {
        await ctx.resolve('db').raw('select 1');
        return { status: 'UP' };
      });
    }

    let unfollow: (() => void) | undefined;
    return {
      async start() {
        // Engines of other plugins join here: every plugin's taps are applied before start.
        hooks.engines.call(engines);
        engine.bind(engines.get(ctx.config.engine));
        // The plugin that keeps vectors (semantic) registers its retriever: hybrid and vector searches ask it.
        hooks.vectors.call(vectors);
        await sites.load();
        await tokens.load();
        await domain.spotlights.load();
        await indexes.start();
        // Processes sharing one database see each other's sites, fields, tokens and spotlights in milliseconds
        // (PostgreSQL LISTEN/NOTIFY), within a poll when a notice is lost.
        unfollow = followChanges(ctx.resolve('changes'), domain, ctx.logger, ctx.config.indexer.pollMs);
      },
      async stop() {
        unfollow?.();
        await indexes.stop();
      },
    };
  },
});

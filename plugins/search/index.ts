import path from 'node:path';
import type { Accounts, Database, PluginContext, PluginDefinition } from '../../runtime/index.js';
import { AccessControl } from './auth/access-control.js';
import { ApiTokens } from './auth/api-tokens.js';
import { flexsearchEngineFactory } from './engine/flexsearch-engine.js';
import { IndexManager } from './indexing/index-manager.js';
import { SnapshotFiles } from './indexing/snapshot-files.js';
import { mountFieldRoutes } from './routes/fields.js';
import { mountGraphqlRoute } from './routes/graphql.js';
import { mountImportRoutes } from './routes/import.js';
import { mountLoginRoutes } from './routes/login.js';
import type { SearchDomain } from './routes/route-context.js';
import { mountSamplePage } from './routes/sample-page.js';
import { mountSearchRoutes } from './routes/search.js';
import { mountSiteRoutes } from './routes/sites.js';
import { mountTokenRoutes } from './routes/tokens.js';
import { SearchService } from './search/search-service.js';
import { DocumentStore } from './store/document-store.js';
import { SiteStore } from './store/site-store.js';

interface SearchConfig {
  indexer: { batchSize: number; pollMs: number; snapshotDelayMs: number };
}

// One domain per runtime (tests run several runtimes in one process).
const domains = new WeakMap<PluginContext<SearchConfig>, SearchDomain>();
const refreshTimers = new WeakMap<PluginContext<SearchConfig>, NodeJS.Timeout>();

/** Build the plugin's objects; constructors do no I/O, so this is fine in register. */
function createDomain(ctx: PluginContext<SearchConfig>): SearchDomain {
  const db = ctx.resolve<Database>('db');
  const accounts = ctx.resolve<Accounts>('accounts');
  const sites = new SiteStore(db);
  const docs = new DocumentStore(db);
  const snapshots = new SnapshotFiles(path.join(ctx.dataDir, 'snapshots'));
  const indexes = new IndexManager(sites, docs, flexsearchEngineFactory, snapshots, ctx.logger, ctx.config.indexer);
  const tokens = new ApiTokens(db);
  return { sites, docs, indexes, tokens, accounts, search: new SearchService(sites, docs, indexes), access: new AccessControl(tokens, accounts), logger: ctx.logger };
}

const plugin: PluginDefinition<SearchConfig> = {
  register(ctx) {
    const domain = createDomain(ctx);
    domains.set(ctx, domain);
    ctx.provide('search.sites', () => domain.sites);
    ctx.provide('search.service', () => domain.search);
    ctx.provide('search.access', () => domain.access);
    ctx.provide('search.importer', () => ({ docs: domain.docs, indexes: domain.indexes }));
    ctx.openapi.addSecurityScheme('Key', { type: 'apiKey', in: 'header', name: 'Key' });
    ctx.openapi.addSecurityScheme('Basic', { type: 'http', scheme: 'basic' });
    ctx.routes((router) => {
      // Access first: every route of the search service after this line (this plugin's and those of
      // plugins mounted after it, such as genai) is public only if auth/public-routes.ts says so.
      router.use(domain.access.middleware());
      mountLoginRoutes(router, domain);
      mountSearchRoutes(router, domain);
      mountImportRoutes(router, domain);
      mountSiteRoutes(router, domain);
      mountFieldRoutes(router, domain);
      mountTokenRoutes(router, domain);
      mountGraphqlRoute(router, domain);
      mountSamplePage(router, domain);
    });
    ctx.health('indexes', () => ({ status: 'UP', details: { sites: domain.sites.list().length, appliedSeq: domain.indexes.appliedSeq } }));
  },

  async start(ctx) {
    const domain = domains.get(ctx)!;
    await domain.sites.load();
    await domain.tokens.load();
    await domain.indexes.start();
    // Processes sharing one database see each other's sites, fields and tokens within a poll.
    if (ctx.config.indexer.pollMs > 0) {
      const timer = setInterval(() => {
        Promise.all([domain.sites.refresh(), domain.tokens.load()]).catch((error: Error) => {
          // A refresh cut short by the stop (its connections are closing) is not worth a warning.
          if (refreshTimers.has(ctx)) ctx.logger.warn({ err: error }, 'refreshing sites and tokens failed');
        });
      }, ctx.config.indexer.pollMs);
      timer.unref();
      refreshTimers.set(ctx, timer);
    }
  },

  async stop(ctx) {
    clearInterval(refreshTimers.get(ctx));
    refreshTimers.delete(ctx);
    await domains.get(ctx)?.indexes.stop();
  },
};

export default plugin;

import { definePlugin, type PluginContext } from 'vela/plugin';
import type { GatewayHooks } from './api.js';
import type { GatewayConfig } from './config.js';
import { mountConsole } from './console/mount-console.js';
import { createGatewayHooks } from './hooks.js';
import { ResponseTimeRecorder } from './metrics/response-time-recorder.js';
import { ResponseTimeReports } from './metrics/response-time-report.js';
import { UpstreamMonitor } from './monitoring/upstream-monitor.js';
import { CodeStore } from './oauth/code-store.js';
import { TokenEndpoint } from './oauth/token-endpoint.js';
import { TokenStore } from './oauth/token-store.js';
import { GatewayProxy } from './proxy/gateway-proxy.js';
import { RouteTable } from './proxy/route-table.js';
import { UpstreamAgents } from './proxy/upstream-agents.js';
import { mountAppRoutes } from './routes/apps.js';
import { mountMappingRoutes } from './routes/mappings.js';
import { mountOAuthRoutes } from './routes/oauth.js';
import { mountReportRoutes } from './routes/reports.js';
import type { GatewayDomain } from './routes/route-context.js';
import { StateSync } from './state-sync.js';
import { AppStore } from './store/app-store.js';
import { ChangeVersions } from './store/change-versions.js';
import { MappingStore } from './store/mapping-store.js';

interface Gateway {
  domain: GatewayDomain;
  sync: StateSync;
  agents: UpstreamAgents;
  proxy: GatewayProxy;
}

/** Build the plugin's objects; constructors do no I/O, so this is fine in register. */
function createGateway(ctx: PluginContext<GatewayConfig, typeof consumes>, hooks: GatewayHooks): Gateway {
  const db = ctx.resolve('db');
  const accounts = ctx.resolve('accounts');
  const config = ctx.config;
  const changes = ctx.resolve('changes');
  const versions = new ChangeVersions(db, changes);
  const mappings = new MappingStore(db, versions, config.proxy.defaultTimeoutMs, ctx.logger);
  const apps = new AppStore(db, versions, ctx.logger);
  const tokens = new TokenStore(db, apps, changes);
  const codes = new CodeStore(db);
  const recorder = new ResponseTimeRecorder(db, ctx.logger, config.responseTimes.bufferSize, (id) =>
    mappings.list().some((m) => m.id === id),
  );
  const agents = new UpstreamAgents(config.proxy.maxSocketsPerUpstream);
  const table = new RouteTable(agents, (id) => recorder.slotOf(id), ctx.logger);
  mappings.onChange((list) => table.rebuild(list));
  const domain: GatewayDomain = {
    config,
    mappings,
    apps,
    tokens,
    codes,
    recorder,
    accounts,
    publicUrls: () => ctx.publicUrls(),
    logger: ctx.logger,
    tokenEndpoint: new TokenEndpoint({
      apps,
      codes,
      tokens,
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    }),
    reports: new ResponseTimeReports(db, recorder),
    monitor: new UpstreamMonitor(db, mappings, hooks, config.monitoring.timeoutMs, ctx.logger),
  };
  return {
    domain,
    agents,
    sync: new StateSync(versions, mappings, apps, tokens, ctx.logger),
    proxy: new GatewayProxy(table, tokens, recorder, ctx.logger, config.proxy.maxForwardedHeadBytes),
  };
}

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['db', 'accounts', 'scheduler', 'changes'] as const;

export default definePlugin<GatewayConfig, typeof consumes>({
  consumes,
  register(ctx) {
    const hooks = ctx.hooks.declare(createGatewayHooks());
    const gateway = createGateway(ctx, hooks);
    const { domain, sync } = gateway;

    // The hot path: proxied requests are answered here, before express (see proxy/gateway-proxy.ts).
    ctx.intercept('proxy', gateway.proxy.intercept);

    ctx.routes((router) => {
      mountMappingRoutes(router, domain);
      mountAppRoutes(router, domain);
      mountReportRoutes(router, domain);
      mountOAuthRoutes(router, domain);
      mountConsole(router, domain);
    });

    ctx.health('database', async () => {
      // On SQLite the database is a file of this process: busy during a long import, never unreachable.
      if (ctx.resolve('db').client.dialect === 'postgresql') await ctx.resolve('db').raw('select 1');
      return { status: 'UP', details: { mappings: domain.mappings.list().length, apps: domain.apps.list().length } };
    });
    ctx.schedule('monitor-upstreams', ctx.config.monitoring.cron, () => domain.monitor.checkAll());
    ctx.schedule('prune-store', '17 3 * * *', () =>
      Promise.all([domain.reports.prune(ctx.config.responseTimes.retentionDays), domain.tokens.prune()]),
    );

    return {
      async start() {
        sync.listen(ctx.resolve('changes'));
        await sync.load();
        await domain.monitor.load();
        domain.recorder.start(ctx.config.responseTimes.flushMs);
        sync.start(ctx.config.syncMs);
      },
      async stop() {
        sync.stop();
        await domain.recorder.stop();
        gateway.proxy.stop();
        gateway.agents.destroyAll();
      },
    };
  },
});

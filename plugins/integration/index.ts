import path from 'node:path';
import type {} from '@vela/plugin-search/api';
import { definePlugin, type OutboundGuard, SecretBox, StoreRefresh } from 'vela/plugin';
import { mountConsolePages } from './console/mount-console.js';
import { IntegrationProxy, type ProxyLimits } from './proxy/integration-proxy.js';
import { mountIntegrationRoutes } from './routes/integration.js';
import { IntegrationStore } from './store/integration-store.js';

interface IntegrationConfig extends ProxyLimits {
  /** Hosts at internal addresses instances may point at, besides the runtime's list (self:connector by default). */
  allowHosts: string[];
  pollMs: number;
}

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['db', 'outbound', 'changes', 'search.console'] as const;

export default definePlugin<IntegrationConfig, typeof consumes>({
  consumes,
  register(ctx) {
    // Header values are sealed with the plugin's secret box, opened in start.
    let secrets: SecretBox | undefined;
    let guard: OutboundGuard | undefined;
    const outbound = () => (guard ??= ctx.resolve('outbound').forFeature(ctx.config.allowHosts));
    const store = new IntegrationStore(
      ctx.resolve('db'),
      () => {
        if (!secrets) throw new Error('the integration plugin has not started: its secret box is not open');
        return secrets;
      },
      ctx.logger,
      () => refresh.announce(),
    );
    // Writes are announced to the other processes sharing the database, which reload at once; the poll is the safety
    // net.
    const refresh = new StoreRefresh({
      what: 'integration instances',
      reload: () => store.load(),
      changes: ctx.resolve('changes'),
      channels: ['integration.instances'],
      pollMs: ctx.config.pollMs,
      logger: ctx.logger,
    });
    const proxy = new IntegrationProxy(store, outbound, ctx.config);
    let connectorUrl: string | null = null;
    ctx.hooks.tap('runtime.ready', 'integration-vendors', (event) => {
      connectorUrl = event.services.connector?.url ?? null;
    });
    ctx.routes((router) => {
      mountIntegrationRoutes(router, { store, proxy, outbound, connectorUrl: () => connectorUrl });
      mountConsolePages(router, ctx.resolve('search.console'));
    });

    return {
      async start() {
        // VELA_SECRET_KEY, else <data>/integration/secret.key; a data folder whose search plugin sealed the
        // instances' headers (<data>/search/secret.key) starts this plugin's key file as a copy of that one.
        secrets = await SecretBox.open(ctx.dataDir, process.env, {
          formerFile: path.join(path.dirname(ctx.dataDir), 'search', 'secret.key'),
        });
        await store.load();
        refresh.start();
      },
      stop() {
        refresh.stop();
      },
    };
  },
});

import type {} from '@vela/plugin-search/api';
import { definePlugin } from 'vela/plugin';
import { mountConsolePages } from './console/mount-console.js';
import { type MetricsConfig, SearchMetrics } from './metrics/search-metrics.js';
import { mountMetricsRoutes } from './routes/metrics.js';

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['db', 'search.sites', 'search.console'] as const;

export default definePlugin<MetricsConfig, typeof consumes>({
  consumes,
  register(ctx) {
    const metrics = new SearchMetrics(ctx.resolve('db'), ctx.config, ctx.logger);
    // Each answered search, on the request path: recording it is an array push (the recorder writes off it).
    ctx.hooks.tap('search.searched', 'search-metrics', (event) => metrics.record(event));
    ctx.hooks.tapPromise('search.siteDeleted', 'search-metrics', ({ siteId }) => metrics.forgetSite(siteId));
    ctx.routes((router) => {
      mountMetricsRoutes(router, { metrics, sites: () => ctx.resolve('search.sites') });
      mountConsolePages(router, ctx.resolve('search.console'));
    });

    return {
      start() {
        metrics.start();
      },
      stop() {
        return metrics.stop();
      },
    };
  },
});

import { definePlugin, type PluginContext, SecretBox } from 'vela/plugin';
import { cmsErrors } from './errors.js';
import { PathEvents } from './events/path-events.js';
import { RepeatFilter } from './events/repeat-filter.js';
import { mountPathListRoute } from './routes/path-list.js';
import type { CmsDomain } from './routes/route-context.js';
import { mountSourceRoutes } from './routes/sources.js';
import { mountStatusRoute } from './routes/status.js';
import { cmsSourceKind, type TrackedCheck } from './sources/cms-kind.js';
import { CmsSourceStore } from './sources/cms-source-store.js';
import { ConnectorSync } from './sources/connector-sync.js';

export interface CmsConfig {
  repeatWindowMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
}

function createDomain(ctx: PluginContext<CmsConfig, typeof consumes>, secrets: () => SecretBox): CmsDomain {
  const db = ctx.resolve('db');
  const store = new CmsSourceStore(db, secrets);
  // Resolved when first used: the outbound guard is created then, and the connector's services are its own.
  const outbound = () => ctx.resolve('outbound');
  const runs = () => ctx.resolve('connector.runs');
  const sources = () => ctx.resolve('connector.sources');
  const events = new PathEvents(
    store,
    runs,
    sources,
    (url, init) => outbound().fetch(url, init),
    new RepeatFilter(db, ctx.config.repeatWindowMs),
    ctx.config,
    ctx.logger,
  );
  return { store, sync: new ConnectorSync(sources), events, runs, sources, outbound, logger: ctx.logger };
}

/** Whether a connector source tracks one document: the kind asks before it leaves content out of a publish run. */
function trackedCheck(domain: CmsDomain): TrackedCheck {
  return async (connectorSource, id) =>
    (await domain.sources().trackedIds(connectorSource, { ids: [id], limit: 1 })).length > 0;
}

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['db', 'outbound', 'connector.runs', 'connector.sources'] as const;

export default definePlugin<CmsConfig, typeof consumes>({
  consumes,
  register(ctx) {
    // Repository passwords are sealed with the plugin's secret box (VELA_SECRET_KEY, or <data>/cms/secret.key), opened
    // in start.
    let secrets: SecretBox | undefined;
    const domain = createDomain(ctx, () => {
      if (!secrets) throw cmsErrors.notStarted();
      return secrets;
    });
    // The connector reads cms sources through this kind, in its pipeline, like every other source.
    ctx.hooks.tap('connector.sourceKinds', 'cms', (kinds) =>
      kinds.register(cmsSourceKind(domain.store, ctx.config, trackedCheck(domain))),
    );
    ctx.routes((router) => {
      mountStatusRoute(router);
      mountPathListRoute(router, domain);
      mountSourceRoutes(router, domain);
    });
    return {
      async start() {
        secrets = await SecretBox.open(ctx.dataDir);
      },
      async stop() {
        // Path lists still being expanded hand their runs to the connector, which interrupts them as it stops.
        await domain.events.settled();
      },
    };
  },
});

import { definePlugin } from 'vela/plugin';
import type { GraphqlDomain } from './domain.js';
import type { GraphqlLimits } from './operation/query-limits.js';
import { mountGraphiql } from './routes/graphiql.js';
import { mountGraphqlRoute } from './routes/graphql.js';

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['search.service', 'search.sites'] as const;

export default definePlugin<GraphqlLimits, typeof consumes>({
  consumes,
  register(ctx) {
    const domain: GraphqlDomain = {
      limits: ctx.config,
      logger: ctx.logger,
      sites: () => ctx.resolve('search.sites'),
      search: () => ctx.resolve('search.service'),
    };
    ctx.routes((router) => {
      mountGraphqlRoute(router, domain);
      mountGraphiql(router);
    });
  },
});

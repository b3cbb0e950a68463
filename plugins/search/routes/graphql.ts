import type { GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import type { ApiRouter } from '../../../runtime/index.js';
import { buildSchema } from '../graphql/schema.js';
import type { SearchDomain } from './route-context.js';

export function mountGraphqlRoute(router: ApiRouter, domain: SearchDomain): void {
  // The siteName enum lists the sites, so the schema is rebuilt (lazily) after a site changes.
  let schema: GraphQLSchema | null = null;
  let handler: ReturnType<typeof createHandler> | null = null;
  domain.sites.onChange(() => {
    schema = null;
  });
  const current = () => {
    if (!schema || !handler) {
      schema = buildSchema(domain.sites, domain.search);
      handler = createHandler({ schema, formatError: (error) => error });
    }
    return handler;
  };
  router.post('/graphql', {
    tags: ['graphql'],
    summary: 'GraphQL: siteNames and siteSearch(siteName: SITE_ENUM, searchParams: {...}, locale: "en_US")',
    body: { type: 'object', required: ['query'], properties: { query: { type: 'string' }, variables: { type: ['object', 'null'] }, operationName: { type: ['string', 'null'] } } },
    validate: false,
    responses: { 200: { description: 'GraphQL result {data, errors}' } },
  }, (req, res, next) => current()(req, res, next));
}

import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import { type ApiRouter, VelaError } from 'vela/plugin';
import type { GraphqlDomain } from '../domain.js';
import { formatGraphqlError, GRAPHQL_CODES } from '../errors.js';
import { finishResult } from '../operation/operation-budget.js';
import { prepareOperation } from '../operation/prepare-operation.js';
import type { RowsOf } from '../operation/query-limits.js';
import { buildSchema } from '../schema/schema.js';

/** Rows a siteSearch returns: its `rows` (capped as the search caps it), else its site's rowsPerPage. */
function rowsOf(domain: GraphqlDomain): RowsOf {
  return (args) => {
    const rows = (args.searchParams as { rows?: unknown } | null | undefined)?.rows;
    if (typeof rows === 'number') return Math.min(Math.max(rows, 0), domain.search().maxRows);
    const site = typeof args.siteName === 'string' ? domain.sites().find(args.siteName) : null;
    return site?.rowsPerPage ?? 0;
  };
}

/** GraphQL answers its errors in its own shape (the GraphQL over HTTP specification), not the runtime's. */
const graphqlErrorsSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['message'],
    properties: {
      message: { type: 'string' },
      locations: {
        type: 'array',
        items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } },
      },
      path: { type: 'array', items: { type: ['string', 'integer'] } },
      extensions: {
        type: 'object',
        description: 'code; for a refused query also limit and found',
        properties: { code: { type: 'string' }, limit: {}, found: {} },
      },
    },
  },
};
const graphqlResultSchema = {
  type: 'object',
  properties: {
    data: { type: ['object', 'null'], description: 'what the query asked for' },
    errors: graphqlErrorsSchema,
  },
};
const graphqlRefusalSchema = { type: 'object', required: ['errors'], properties: { errors: graphqlErrorsSchema } };

/**
 * graphql-http reads only UTF-8 JSON and answers anything else with an empty 415; refused here instead, the
 * client gets the GraphQL error shape naming what to send.
 */
const jsonOnly: RequestHandler = (req, _res, next) => {
  // The same reading as graphql-http's: whitespace dropped, the first parameter (if any) must be the charset.
  const [mediaType, charset = 'charset=utf-8'] = (req.headers['content-type'] ?? '')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(';');
  const json = mediaType === 'application/json' && charset === 'charset=utf-8';
  next(
    json
      ? undefined
      : new VelaError(
          'unsupported_media_type',
          'POST /graphql takes a JSON body: Content-Type: application/json (UTF-8)',
          415,
        ),
  );
};

const BODY_PARSER_CODES: Record<string, string> = {
  'entity.too.large': 'payload_too_large',
  'entity.parse.failed': 'invalid_json',
};

/**
 * A request refused before GraphQL sees it (a body over the limit, invalid JSON, nested too deep) is still
 * answered in the GraphQL error shape, with the status the runtime chose.
 */
const graphqlRequestErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const e = error as { status?: unknown; type?: unknown; code?: unknown; message?: unknown };
  if (typeof e.status !== 'number' || e.status < 400 || e.status >= 500) return next(error);
  const code =
    error instanceof VelaError ? error.code : (BODY_PARSER_CODES[String(e.type)] ?? GRAPHQL_CODES.badRequest);
  const message =
    code === 'payload_too_large'
      ? `the request body is larger than the GraphQL limit of ${String((e as { limit?: unknown }).limit)} bytes`
      : String(e.message);
  res.status(e.status).json({ errors: [{ message, extensions: { code } }] });
};

export function mountGraphqlRoute(router: ApiRouter, domain: GraphqlDomain): void {
  const { limits } = domain;
  // SiteName takes the sites as they are at each request, so one schema serves for every site there will be;
  // built at the first request, when the search plugin's services are there to resolve.
  let handler: ReturnType<typeof createHandler> | null = null;
  const rows = rowsOf(domain);
  const current = () => {
    if (!handler) {
      const schema: GraphQLSchema = buildSchema(domain.sites, domain.search);
      handler = createHandler({
        schema,
        onSubscribe: (_req, params) => prepareOperation(schema, params, limits, rows),
        onOperation: (_req, _args, result) => finishResult(result, limits.maxResponseBytes),
        formatError: (error) => formatGraphqlError(error, domain.logger),
      });
    }
    return handler;
  };
  router.post(
    '/graphql',
    {
      access: 'public',
      tags: ['graphql'],
      summary: 'GraphQL: siteNames and siteSearch(siteName: SITE_ENUM, searchParams: {...}, locale: "en_US")',
      description:
        'Limited per request (plugins.graphql): body size, tokens, depth, fields, aliases, siteSearch calls, total rows, time and answer size. A refused query answers {"errors":[{"message","extensions":{"code","limit","found"}}]}.',
      body: {
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'string' },
          variables: { type: ['object', 'null'] },
          operationName: { type: ['string', 'null'] },
        },
      },
      bodyLimit: limits.bodyLimit,
      validate: false,
      responses: {
        200: { description: 'GraphQL result {data, errors}', schema: graphqlResultSchema },
        400: {
          description:
            'a request GraphQL cannot read; with Accept: application/graphql-response+json, a refused query too',
          schema: graphqlRefusalSchema,
        },
        413: { description: 'a body over plugins.graphql.bodyLimit', schema: graphqlRefusalSchema },
        415: { description: 'the body is not JSON', schema: graphqlRefusalSchema },
      },
    },
    jsonOnly,
    (req, res, next) => current()(req, res, next),
  );
  router.raw.use('/graphql', graphqlRequestErrors);
}

import { GraphQLError } from 'graphql';
import { type Logger, VelaError } from 'vela/plugin';

/**
 * Every GraphQL error carries `extensions.code`, in the same lower snake case as the REST error codes, so a
 * client tells a refused query from a failed search without reading messages. Resolver errors keep the
 * search's own codes (`site_not_found`, `invalid_parameter`, ...).
 */
export const GRAPHQL_CODES = {
  badRequest: 'bad_request',
  parseFailed: 'graphql_parse_failed',
  validationFailed: 'graphql_validation_failed',
  badUserInput: 'bad_user_input',
  queryTooLarge: 'query_too_large',
  depth: 'depth_limit_exceeded',
  selections: 'selection_limit_exceeded',
  aliases: 'alias_limit_exceeded',
  siteSearches: 'site_search_limit_exceeded',
  rows: 'rows_limit_exceeded',
  timeBudget: 'time_budget_exceeded',
  responseTooLarge: 'response_too_large',
  internal: 'internal_error',
} as const;

export type GraphqlCode = (typeof GRAPHQL_CODES)[keyof typeof GRAPHQL_CODES];

/** Errors of the resolvers, in the search's own codes (a `siteSearch` of no site is the REST search's 404). */
export const graphqlErrors = {
  unknownSiteName: () =>
    new VelaError(
      'site_not_found',
      'siteName UNKNOWN names no site: write one of the other SiteName values (the siteNames query lists the sites)',
      404,
    ),
};

export function graphqlError(
  code: GraphqlCode | string,
  message: string,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

/** A limit refused: the code, the limit and what the query asked for, in the extensions. */
export function limitError(code: GraphqlCode, message: string, limit: number, found: number): GraphQLError {
  return graphqlError(code, message, { limit, found: Number.isFinite(found) ? found : null });
}

/** The same error with `code` added (and its locations and path kept), unless it already has one. */
export function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

/**
 * graphql-http's formatError: the one place every answered error passes. A VelaError from a resolver keeps
 * its code; an error graphql-http raised itself (no query, bad JSON) is a bad request; an unexpected failure
 * is logged and answered without its message, as REST answers a 500.
 */
export function formatGraphqlError(error: Error | GraphQLError, logger: Logger): GraphQLError {
  if (!(error instanceof GraphQLError)) return graphqlError(GRAPHQL_CODES.badRequest, error.message);
  if (error.extensions.code) return error;
  const cause = error.originalError;
  if (cause instanceof VelaError && cause.status < 500) return withCode(error, cause.code);
  if (cause && !(cause instanceof GraphQLError)) {
    logger.error({ err: cause, path: error.path }, 'GraphQL resolver failed');
    return new GraphQLError('the server failed to answer this field; the cause is in its log', {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: GRAPHQL_CODES.internal },
    });
  }
  // What graphql-js reports while executing without an original error: variables that do not coerce,
  // an unknown operationName.
  return withCode(error, GRAPHQL_CODES.badUserInput);
}

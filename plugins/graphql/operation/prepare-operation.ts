import { type DocumentNode, type ExecutionArgs, GraphQLError, type GraphQLSchema, parse, validate } from 'graphql';
import { GRAPHQL_CODES, graphqlError, withCode } from '../errors.js';
import { budgetedFieldResolver, OperationBudget } from './operation-budget.js';
import { checkLimits, type GraphqlLimits, type RowsOf } from './query-limits.js';

/** What every resolver gets as its context (a type, not an interface: graphql-http wants a record). */
export type GraphqlContext = { budget: OperationBudget };

export interface GraphqlRequestParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

// graphql 16 words it "more that N tokens"; a later version may fix the typo.
const TOO_MANY_TOKENS = /Document contains more tha[nt] \d+ tokens/;

/** Parse with a token limit: past it, graphql stops reading at once, before any tree is built. */
function parseQuery(query: string, maxTokens: number): DocumentNode | GraphQLError {
  try {
    return parse(query, { maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    if (TOO_MANY_TOKENS.test(error.message))
      return graphqlError(
        GRAPHQL_CODES.queryTooLarge,
        `the query has more than ${maxTokens} tokens (names, punctuation, values); send a smaller one`,
        {
          limit: maxTokens,
        },
      );
    return withCode(error, GRAPHQL_CODES.parseFailed);
  }
}

/**
 * graphql-http's onSubscribe: parse, check the limits, then run graphql's own validation, each step only
 * when the one before passed, so a hostile query costs a token count and a walk at most. Errors come back
 * as graphql-http answers validation errors (200 for application/json, 400 for
 * application/graphql-response+json).
 */
export function prepareOperation(
  schema: GraphQLSchema,
  params: GraphqlRequestParams,
  limits: GraphqlLimits,
  rowsOf: RowsOf,
): (ExecutionArgs & { contextValue: GraphqlContext }) | readonly GraphQLError[] {
  const started = performance.now();
  const document = parseQuery(params.query, limits.maxTokens);
  if (document instanceof GraphQLError) return [document];
  const overLimits = checkLimits(schema, document, limits, params, rowsOf);
  if (overLimits.length > 0) return overLimits;
  const invalid = validate(schema, document);
  if (invalid.length > 0) return invalid.map((error) => withCode(error, GRAPHQL_CODES.validationFailed));
  const contextValue: GraphqlContext = {
    budget: new OperationBudget(limits.timeBudgetMs, limits.maxResponseBytes, () => performance.now(), started),
  };
  return {
    schema,
    document,
    operationName: params.operationName,
    variableValues: params.variables,
    contextValue,
    fieldResolver: budgetedFieldResolver as ExecutionArgs['fieldResolver'],
  };
}

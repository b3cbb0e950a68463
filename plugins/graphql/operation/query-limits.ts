import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  validate,
} from 'graphql';
import { type ComplexityEstimator, createComplexityRule } from 'graphql-query-complexity';
import { GRAPHQL_CODES, type GraphqlCode, limitError } from '../errors.js';

/** `plugins.graphql`: what one GraphQL request may ask for (defaults in config.schema.json). */
export interface GraphqlLimits {
  bodyLimit: string;
  maxTokens: number;
  maxDepth: number;
  maxSelections: number;
  maxAliases: number;
  maxSiteSearches: number;
  maxRows: number;
  timeBudgetMs: number;
  maxResponseBytes: number;
}

export interface OperationRequest {
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** The rows one siteSearch call returns, from its coerced arguments (variables applied). */
export type RowsOf = (args: Record<string, unknown>) => number;

const LIMIT_CODES = new Set<unknown>([
  GRAPHQL_CODES.depth,
  GRAPHQL_CODES.selections,
  GRAPHQL_CODES.aliases,
  GRAPHQL_CODES.siteSearches,
  GRAPHQL_CODES.rows,
]);

/**
 * The complexity walk expands a fragment each time it is spread, so a few nested fragments could make it
 * visit millions of nodes; past this many times the selection limit it stops (graphql-query-complexity
 * throws), and the query is refused as too large.
 */
const NODE_WALK_FACTOR = 4;

/**
 * Depth of an operation: fields nested in fields (fragments add no level). Each fragment is measured
 * once (memoized), so fragments spread many times cost nothing more; graphql-query-complexity sums, and
 * a depth is a maximum, so this one rule is ours.
 */
export function maxDepthRule(max: number): ValidationRule {
  return (context: ValidationContext) => {
    const measured = new Map<string, number>();
    const depthOf = (set: SelectionSetNode | undefined, active: Set<string>): number => {
      let deepest = 0;
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet, active));
        else if (selection.kind === Kind.INLINE_FRAGMENT)
          deepest = Math.max(deepest, depthOf(selection.selectionSet, active));
        else deepest = Math.max(deepest, fragmentDepth(selection.name.value, active));
      }
      return deepest;
    };
    const fragmentDepth = (name: string, active: Set<string>): number => {
      const known = measured.get(name);
      if (known !== undefined) return known;
      const fragment = context.getFragment(name);
      // Unknown or cyclic fragments are the standard rules' to report (they run after these).
      if (!fragment || active.has(name)) return 0;
      active.add(name);
      const depth = depthOf(fragment.selectionSet, active);
      active.delete(name);
      measured.set(name, depth);
      return depth;
    };
    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        const depth = depthOf(operation.selectionSet, new Set());
        if (depth > max)
          context.reportError(
            limitError(
              GRAPHQL_CODES.depth,
              `the query nests ${depth} fields deep; at most ${max} are allowed`,
              max,
              depth,
            ),
          );
      },
    };
  };
}

interface SumLimit {
  code: GraphqlCode;
  max: number;
  estimator: ComplexityEstimator;
  message: (found: number, max: number) => string;
}

const isSiteSearch: (args: { field: { name: string }; type: { name: string } }) => boolean = ({ field, type }) =>
  field.name === 'siteSearch' && type.name === 'Query';

/**
 * The limits that add up over a query, each a graphql-query-complexity rule with its own estimator: fields
 * selected, aliases, siteSearch calls and the rows they return. Fragments count each time they are spread.
 */
function sumLimits(limits: GraphqlLimits, rowsOf: RowsOf): SumLimit[] {
  return [
    {
      code: GRAPHQL_CODES.selections,
      max: limits.maxSelections,
      estimator: ({ childComplexity }) => 1 + childComplexity,
      message: (found, max) =>
        `the query selects ${found} fields (fragments count each time they are spread); at most ${max} are allowed`,
    },
    {
      code: GRAPHQL_CODES.aliases,
      max: limits.maxAliases,
      estimator: ({ node, childComplexity }) => (node.alias ? 1 : 0) + childComplexity,
      message: (found, max) => `the query uses ${found} aliases; at most ${max} are allowed`,
    },
    {
      code: GRAPHQL_CODES.siteSearches,
      max: limits.maxSiteSearches,
      estimator: (args) => (isSiteSearch(args) ? 1 : args.childComplexity),
      message: (found, max) => `the query calls siteSearch ${found} times; at most ${max} calls are allowed`,
    },
    {
      code: GRAPHQL_CODES.rows,
      max: limits.maxRows,
      estimator: (args) => (isSiteSearch(args) ? rowsOf(args.args) : args.childComplexity),
      message: (found, max) =>
        `the query asks for ${found} rows in all (the sum of rows over its siteSearch calls, a call without rows counting its site's rowsPerPage); at most ${max} are allowed`,
    },
  ];
}

function sumRule(
  limit: SumLimit,
  limits: GraphqlLimits,
  request: OperationRequest,
  operationName: string | undefined,
): ValidationRule {
  return createComplexityRule({
    maximumComplexity: limit.max,
    estimators: [limit.estimator],
    variables: request.variables ?? {},
    operationName,
    maxQueryNodes: limits.maxSelections * NODE_WALK_FACTOR,
    createError: (max, found) => limitError(limit.code, limit.message(found, max), max, found),
  });
}

/**
 * The operation the complexity rules measure: the one named, when the document has it; otherwise every
 * operation counts (graphql-query-complexity reads `operation.name` when given a name, so a name the
 * document lacks is not passed on: execution refuses that request anyway).
 */
function measuredOperation(document: DocumentNode, operationName: string | null | undefined): string | undefined {
  if (!operationName) return undefined;
  const named = document.definitions.some(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operationName,
  );
  return named ? operationName : undefined;
}

/**
 * Check a parsed query against the limits before graphql's own validation runs (some of its rules are
 * quadratic in the number of fields). Answers only the limit errors: any other problem is left to the
 * standard validation and to execution, which report it in their own words.
 */
export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: GraphqlLimits,
  request: OperationRequest,
  rowsOf: RowsOf,
): GraphQLError[] {
  const operationName = measuredOperation(document, request.operationName);
  const rules = [
    maxDepthRule(limits.maxDepth),
    ...sumLimits(limits, rowsOf).map((limit) => sumRule(limit, limits, request, operationName)),
  ];
  try {
    return validate(schema, document, rules, { maxErrors: 20 }).filter((error) =>
      LIMIT_CODES.has(error.extensions.code),
    );
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    // The complexity walk gave up: fragments spread within fragments multiply past any sensible size.
    const walked = limits.maxSelections * NODE_WALK_FACTOR;
    return [
      limitError(
        GRAPHQL_CODES.selections,
        `the query expands to more than ${walked} selections (fragments count each time they are spread); at most ${limits.maxSelections} fields are allowed`,
        limits.maxSelections,
        Number.POSITIVE_INFINITY,
      ),
    ];
  }
}

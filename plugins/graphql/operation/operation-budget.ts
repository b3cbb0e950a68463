import { defaultFieldResolver, type ExecutionResult, GraphQLError, type GraphQLFieldResolver } from 'graphql';
import { GRAPHQL_CODES, limitError } from '../errors.js';

/** Fields written between two looks at the clock while results are completed (a clock read costs more than a field). */
const FIELDS_PER_CHECK = 32;

/**
 * What one GraphQL operation may spend: time from the moment its request was read, and bytes of answer.
 * Every service shares one event loop, so the operation's searches run one after another, each only while
 * time is left, and the fields of their results are written only while time is left: once the budget is
 * spent, the rest of the operation answers time_budget_exceeded instead of working. A search under way is
 * not interrupted, so an operation overruns its budget by one search at most.
 */
export class OperationBudget {
  private readonly deadline: number;
  private bytes = 0;
  private fields = 0;
  private spent: GraphQLError | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly timeBudgetMs: number,
    private readonly maxResponseBytes: number,
    private readonly now: () => number = () => performance.now(),
    private readonly started = now(),
  ) {
    this.deadline = started + timeBudgetMs;
  }

  /** Refuse to go on once the operation has used its time. */
  checkTime(): void {
    if (this.spent) throw this.spent;
    const now = this.now();
    if (now <= this.deadline) return;
    const used = Math.round(now - this.started);
    this.spent = limitError(
      GRAPHQL_CODES.timeBudget,
      `the operation used its time budget of ${this.timeBudgetMs} ms (${used} ms); ask for fewer rows or fewer siteSearch calls`,
      this.timeBudgetMs,
      used,
    );
    throw this.spent;
  }

  /**
   * A field of a result is about to be written: refused once the time is spent (the clock is read every few fields).
   */
  checkField(): void {
    this.fields += 1;
    if (this.spent || this.fields % FIELDS_PER_CHECK === 0) this.checkTime();
  }

  /**
   * Run `work` after the operation's earlier expensive work and the writing of its results: graphql would start
   * every top-level field at once, so a check at each start would pass for all of them before any had cost anything.
   */
  inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(work);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Count a field's value (as JSON, whole: members not selected too, which errs on the safe side) and
   * refuse it once the answer would pass the bound.
   */
  charge(value: unknown): void {
    this.bytes += JSON.stringify(value)?.length ?? 0;
    if (this.bytes > this.maxResponseBytes) throw responseTooLarge(this.maxResponseBytes, this.bytes);
  }
}

/** graphql's default resolver, writing a field only while the operation's time lasts. */
export const budgetedFieldResolver: GraphQLFieldResolver<unknown, { budget?: OperationBudget } | undefined> = (
  source,
  args,
  context,
  info,
) => {
  context?.budget?.checkField();
  return defaultFieldResolver(source, args, context, info);
};

function responseTooLarge(max: number, found: number): GraphQLError {
  return limitError(
    GRAPHQL_CODES.responseTooLarge,
    `the answer would be larger than ${max} bytes: ask for fewer rows or fewer siteSearch calls`,
    max,
    found,
  );
}

/**
 * A top-level field cut off by the time budget while its results were written: the whole field is null, with
 * one error at its path, rather than a result with holes and an error for every field that was not written.
 * Fields finished in time keep their data.
 */
function collapseCutFields(result: ExecutionResult): ExecutionResult {
  const cut = new Map<string | number, GraphQLError>();
  for (const error of result.errors ?? []) {
    const top = error.path?.[0];
    if (error.extensions.code === GRAPHQL_CODES.timeBudget && top !== undefined && !cut.has(top)) {
      cut.set(top, new GraphQLError(error.message, { path: [top], extensions: error.extensions }));
    }
  }
  if (cut.size === 0) return result;
  const data = result.data ? { ...result.data } : result.data;
  for (const top of cut.keys()) if (data) data[String(top)] = null;
  const others = (result.errors ?? []).filter((error) => error.path?.[0] === undefined || !cut.has(error.path[0]));
  return { ...result, data, errors: [...others, ...cut.values()] };
}

/**
 * The last step before the answer is written: fields cut off by the time budget collapsed, and a result past
 * the size bound (whatever produced it) replaced by the one error, so no answer grows beyond `maxResponseBytes`.
 */
export function finishResult(result: ExecutionResult, maxResponseBytes: number): ExecutionResult {
  const finished = collapseCutFields(result);
  const size = JSON.stringify(finished).length;
  return size <= maxResponseBytes ? finished : { data: null, errors: [responseTooLarge(maxResponseBytes, size)] };
}

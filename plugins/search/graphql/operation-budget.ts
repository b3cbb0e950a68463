import type { ExecutionResult, GraphQLError } from 'graphql';
import { GRAPHQL_CODES, limitError } from './graphql-errors.js';

/**
 * What one GraphQL operation may spend: time from the moment its request was read, and bytes of answer.
 * Every service shares one event loop, so the expensive resolvers (siteSearch) check it before they start
 * and count what they return; once either is spent, the remaining fields answer an error instead of work.
 */
export class OperationBudget {
  private readonly deadline: number;
  private bytes = 0;

  constructor(
    private readonly timeBudgetMs: number,
    private readonly maxResponseBytes: number,
    started = performance.now(),
  ) {
    this.deadline = started + timeBudgetMs;
  }

  /** Refuse to start more work once the operation has used its time. */
  checkTime(): void {
    const now = performance.now();
    if (now <= this.deadline) return;
    const used = Math.round(now - this.deadline + this.timeBudgetMs);
    throw limitError(
      GRAPHQL_CODES.timeBudget,
      `the operation used its time budget of ${this.timeBudgetMs} ms before this field ran (${used} ms)`,
      this.timeBudgetMs,
      used,
    );
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

function responseTooLarge(max: number, found: number): GraphQLError {
  return limitError(GRAPHQL_CODES.responseTooLarge, `the answer would be larger than ${max} bytes: ask for fewer rows or fewer siteSearch calls`, max, found);
}

/**
 * The last check before the answer is written: a result past the bound (whatever produced it) is
 * replaced by the one error, so no answer grows beyond `maxResponseBytes`.
 */
export function boundResult(result: ExecutionResult, maxResponseBytes: number): ExecutionResult | undefined {
  const size = JSON.stringify(result).length;
  return size <= maxResponseBytes ? undefined : { data: null, errors: [responseTooLarge(maxResponseBytes, size)] };
}

import { setTimeout as wait } from 'node:timers/promises';
import { UpstreamError } from './provider.js';

export interface RetryPolicy {
  /** Tries in all, the first one included. */
  attempts: number;
  /** The first backoff; each next one doubles it. */
  baseDelayMs: number;
  /** The longest wait: a Retry-After asking for more fails at once (a request is not held for minutes). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 30_000 };

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110, 10.2.3); null when unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Rate limits (429) and server errors (5xx) pass; any other answer would be the same on a retry. */
const retryable = (error: unknown): error is UpstreamError =>
  error instanceof UpstreamError && error.status !== undefined && (error.status === 429 || error.status >= 500);

/** How long to wait before try `attempt + 1`, or null to give up with the error. */
function delayBefore(error: UpstreamError, attempt: number, policy: RetryPolicy): number | null {
  const asked = retryAfterMs(error.retryAfter);
  const delay = asked ?? policy.baseDelayMs * 2 ** (attempt - 1);
  return delay > policy.maxDelayMs && asked !== null ? null : Math.min(delay, policy.maxDelayMs);
}

/**
 * `run` until it succeeds, retrying a 429 or a 5xx with exponential backoff (the server's Retry-After when it
 * sends one) at most `policy.attempts` times in all; the last error is thrown. An abort of `signal` ends the
 * wait and throws its reason.
 */
export async function withRetries<T>(run: () => Promise<T>, policy: RetryPolicy, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!retryable(error) || attempt >= policy.attempts) throw error;
      const delay = delayBefore(error, attempt, policy);
      if (delay === null) throw error;
      await wait(delay, undefined, { signal }).catch(() => {
        throw signal.reason;
      });
    }
  }
}

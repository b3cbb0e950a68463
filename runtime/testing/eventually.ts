import { appendFileSync } from 'node:fs';
import type { ExecutionContext } from 'ava';

/** Poll until `check` holds or the deadline passes: tests wait for real work with a bound, never a fixed sleep. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

/**
 * Poll as `eventually` does, but timed: the milliseconds until `check` held, for a test that judges a propagation
 * delay. The pause is short yet not zero: a flat-out loop would take the CPU the processes measured need.
 */
export async function timeUntil(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
  everyMs = 5,
): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return performance.now() - started;
}

/**
 * The middle of the values (the upper one of an even count): delays are judged on the median of several rounds, not on
 * one.
 */
export function median(values: number[]): number {
  if (values.length === 0) throw new Error('the median of no values');
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/**
 * Delays a test measured (propagation rounds, say): logged with their median, and appended as one JSON line to
 * the file `VELA_DELAYS_FILE` names, where `scripts/bench/propagation.ts` reads them to judge its goals. A test
 * does not judge them itself: a delay goal is a benchmark's, on a quiet machine, never a timed assertion that a
 * busy CI machine fails at random.
 */
export function reportDelays(log: (message: string) => void, measure: string, delaysMs: number[]): void {
  const medianMs = median(delaysMs);
  log(`${measure} (ms): ${delaysMs.map((ms) => ms.toFixed(1)).join(', ')}; median ${medianMs.toFixed(1)}`);
  const file = process.env.VELA_DELAYS_FILE;
  if (file) appendFileSync(file, `${JSON.stringify({ measure, delaysMs, medianMs })}\n`);
}

/** How many rounds a delay is measured over: its goals (scripts/bench) are stated on the median of seven. */
export const DELAY_ROUNDS = 7;

/**
 * Measure a delay DELAY_ROUNDS times, one round after the other (`round` answers the delay of round n, from
 * timeUntil), check on `t` that every round gave one, and report them as `measure` (reportDelays, logged on `t`):
 * the delays, in the order measured.
 */
export async function measureRounds(
  t: Pick<ExecutionContext, 'is' | 'log'>,
  measure: string,
  round: (n: number) => Promise<number>,
): Promise<number[]> {
  const delaysMs: number[] = [];
  for (let n = 0; n < DELAY_ROUNDS; n++) delaysMs.push(await round(n));
  t.is(delaysMs.length, DELAY_ROUNDS, `${measure}: a delay from every round`);
  reportDelays((message) => t.log(message), measure, delaysMs);
  return delaysMs;
}

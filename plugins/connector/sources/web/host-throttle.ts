import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Politeness: with a delay, requests to one origin go one at a time, each starting at least `delayMs`
 * after the previous one was answered (its headers arrived). Measuring from the answer, not from the
 * previous start, keeps the gap the server sees at least the delay however late a request leaves.
 * Without a delay, requests are not held at all (the crawl's concurrency bounds them).
 */
export class HostThrottle {
  /** Per origin: resolves with the time the last request in the chain was answered. */
  private readonly tail = new Map<string, Promise<number>>();

  /** Waits for the origin's turn; call the returned function once the request is answered (or failed). */
  async wait(origin: string, delayMs: number, signal: AbortSignal): Promise<() => void> {
    if (delayMs <= 0) return () => undefined;
    const previous = this.tail.get(origin) ?? Promise.resolve(Number.NEGATIVE_INFINITY);
    let answered!: (at: number) => void;
    this.tail.set(origin, new Promise<number>((ok) => (answered = ok)));
    const done = () => answered(Date.now());
    try {
      const wait = (await previous) + delayMs - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal });
    } catch (error) {
      done(); // cancelled: let the chain go on (to its own cancellation)
      throw error;
    }
    return done;
  }
}

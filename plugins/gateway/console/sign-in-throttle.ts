/**
 * Failed sign-ins per client address and user name: after `limit` failures within `windowMs`, that
 * pair is refused until the oldest failure leaves the window, so guessing the administrator's password
 * from one place is slow, and one attacker cannot lock the administrator out everywhere.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limit = 10, private readonly windowMs = 15 * 60_000, private readonly now = () => Date.now()) {}

  /** Seconds until this client may try again; 0 when it may now. */
  retryAfterSeconds(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit]! + this.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    // Bounded memory: a flood of distinct keys clears the table rather than growing it without end.
    if (this.failures.size >= 10_000) this.failures.clear();
    this.failures.set(key, [...this.recent(key), this.now()]);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }
}

export const throttleKey = (address: string | undefined, username: string) => `${address ?? '?'}|${username.toLowerCase()}`;

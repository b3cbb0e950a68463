import type { AttemptLimits } from '../config/load-config.js';
import type { Database } from '../storage/database.js';

/** An address that signed an account in is exempt from that account's limit for this long. */
const TRUST_MS = 24 * 3600_000;

/** What the database holds of an account's recent failures (read with the account, in the same query). */
export interface FailureWindow {
  /** Epoch milliseconds; PostgreSQL answers bigint as a string. */
  window_start: number | string | null;
  failures: number | null;
}

/**
 * The per-user password limit of real accounts, in the database: shared by every process on it (cluster
 * workers, several hosts), kept over restarts, and out of reach of the in-memory tables an attacker can flood
 * with throwaway names or addresses. Failures count in fixed windows of `windowSeconds`, updated in one
 * statement, so concurrent processes never lose a count. An address that signed the account in within a day
 * is not held back, so guesses from elsewhere cannot lock the administrator out; that is stored too.
 */
export class AccountLockout {
  private readonly windowMs: number;

  constructor(
    private readonly db: Database,
    private readonly limits: AttemptLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = limits.windowSeconds * 1000;
  }

  /** Seconds until `where` (an addressKey) may try the account's password again; 0 when it may now. */
  async retryAfterSeconds(username: string, state: FailureWindow, where: string): Promise<number> {
    const start = Number(state.window_start ?? 0);
    const now = this.now();
    if ((state.failures ?? 0) < this.limits.perUser || start + this.windowMs <= now) return 0;
    if (await this.isTrusted(username, where)) return 0;
    return Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
  }

  async failed(username: string): Promise<void> {
    const now = this.now();
    const expired = now - this.windowMs;
    await this.db('runtime_login_failures')
      .insert({ username, window_start: now, failures: 1 })
      .onConflict('username')
      .merge({
        failures: this.db.raw(
          'case when runtime_login_failures.window_start <= ? then 1 else runtime_login_failures.failures + 1 end',
          [expired],
        ),
        window_start: this.db.raw(
          'case when runtime_login_failures.window_start <= ? then ? else runtime_login_failures.window_start end',
          [expired, now],
        ),
      });
  }

  /** The account signed in from `where`: trusted there for a day; older trust of the account goes. */
  async succeeded(username: string, where: string): Promise<void> {
    const now = this.now();
    await this.db('runtime_trusted_addresses')
      .insert({ username, address: where, signed_in_at: now })
      .onConflict(['username', 'address'])
      .merge(['signed_in_at']);
    await this.db('runtime_trusted_addresses')
      .where({ username })
      .andWhere('signed_in_at', '<', now - TRUST_MS)
      .delete();
  }

  private async isTrusted(username: string, where: string): Promise<boolean> {
    const row = await this.db('runtime_trusted_addresses')
      .where({ username, address: where })
      .andWhere('signed_in_at', '>', this.now() - TRUST_MS)
      .first('signed_in_at');
    return row !== undefined;
  }
}

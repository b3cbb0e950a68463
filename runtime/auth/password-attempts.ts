import { isIP, isIPv6 } from 'node:net';
import type { AttemptLimits } from '../config/load-config.js';
import { BoundedMap } from './bounded-map.js';
import { sha256Hex } from './secret-digest.js';

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = { perPair: 10, perAddress: 100, perUser: 100, windowSeconds: 900 };

/** Entries kept per address table: enough for every real client, a bound for a flood. */
const TRACKED = 10_000;
/** Known-wrong user name and password pairs remembered, so a repeated wrong header costs no scrypt. */
const KNOWN_WRONG = 1_000;
/**
 * User names that are no account, counted so that a 429 does not tell them from real ones. The accounts'
 * own counts are kept apart, in the database (AccountLockout), where no flood of names reaches them.
 */
const UNKNOWN_NAMES = 1_000;

/**
 * An address as the limits count it: IPv4 (also IPv4-mapped IPv6), or the /64 an IPv6 address is in (one
 * subscriber usually holds a whole /64). Anything else (a forwarded address that is no IP) counts as one.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return '?';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIP(address)) return 'other';
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]!.split('::');
  const groups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const full = address.includes('::')
    ? [...groups, ...Array(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups]
    : groups;
  return `${full.slice(0, 4).join(':')}::/64`;
}

/**
 * The failure counts of password checks that live in this process's memory: by address, by address and user
 * name, and by user names that are no account. Past a limit the check is refused (429) before any password
 * is hashed. The accounts' own counts are in the database (AccountLockout), shared by every process.
 */
export class PasswordAttempts {
  // Counts that reached their limit are dropped last: a flood of new addresses or names cannot free them.
  private readonly byPair: BoundedMap<string, number[]>;
  private readonly byAddress: BoundedMap<string, number[]>;
  private readonly byUnknownName: BoundedMap<string, number[]>;
  private readonly knownWrong = new BoundedMap<string, number>(KNOWN_WRONG);
  private readonly windowMs: number;

  constructor(
    readonly limits: AttemptLimits = DEFAULT_ATTEMPT_LIMITS,
    readonly now: () => number = Date.now,
  ) {
    this.windowMs = limits.windowSeconds * 1000;
    this.byPair = new BoundedMap(TRACKED, (times) => this.holds(times, limits.perPair));
    this.byAddress = new BoundedMap(TRACKED, (times) => this.holds(times, limits.perAddress));
    this.byUnknownName = new BoundedMap(UNKNOWN_NAMES, (times) => this.holds(times, limits.perUser));
  }

  /** Seconds until `address` may try a password for `username` again; 0 when it may now. */
  retryAfterSeconds(address: string | undefined, username: string): number {
    const where = addressKey(address);
    return Math.max(
      this.wait(this.byPair, `${where}|${username.toLowerCase()}`, this.limits.perPair),
      this.wait(this.byAddress, where, this.limits.perAddress),
    );
  }

  /** The per-user limit of a name that is no account, so it answers as a real one would. */
  unknownNameRetryAfterSeconds(username: string): number {
    return this.wait(this.byUnknownName, username.toLowerCase(), this.limits.perUser);
  }

  /** Whether this exact pair failed lately: answer it as wrong without hashing again. */
  isKnownWrong(username: string, password: string): boolean {
    const at = this.knownWrong.get(pairHash(username, password));
    return at !== undefined && this.now() - at < this.windowMs;
  }

  /** A failed check from `address`; `password` when it was hashed, so the same pair is not hashed again. */
  failed(address: string | undefined, username: string, password?: string): void {
    const where = addressKey(address);
    this.record(this.byPair, `${where}|${username.toLowerCase()}`, this.limits.perPair);
    this.record(this.byAddress, where, this.limits.perAddress);
    if (password !== undefined) this.knownWrong.set(pairHash(username, password), this.now());
  }

  failedUnknownName(username: string): void {
    this.record(this.byUnknownName, username.toLowerCase(), this.limits.perUser);
  }

  succeeded(address: string | undefined, username: string): void {
    this.byPair.delete(`${addressKey(address)}|${username.toLowerCase()}`);
  }

  /** Whether failure times (the last `limit` kept) still hold their key back. */
  private holds(times: number[], limit: number): boolean {
    return times.length >= limit && times[times.length - limit]! + this.windowMs > this.now();
  }

  private wait(table: BoundedMap<string, number[]>, key: string, limit: number): number {
    const recent = this.recent(table, key);
    if (recent.length < limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - limit]! + this.windowMs - this.now()) / 1000));
  }

  /** Keeps the last `limit` failure times: all the wait needs, so one key's memory is bounded too. */
  private record(table: BoundedMap<string, number[]>, key: string, limit: number): void {
    table.set(key, [...this.recent(table, key), this.now()].slice(-limit));
  }

  private recent(table: BoundedMap<string, number[]>, key: string): number[] {
    const since = this.now() - this.windowMs;
    return (table.get(key) ?? []).filter((t) => t > since);
  }
}

// User names hold no NUL (Accounts refuses them), so the separator cannot be forged.
const pairHash = (username: string, password: string) => sha256Hex(`${username.toLowerCase()}\u0000${password}`);

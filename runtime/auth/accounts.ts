import { randomBytes } from 'node:crypto';
import { httpErrors } from '../errors.js';
import { type Logger, loggableText } from '../logger.js';
import { RateLimitedLog, SIGN_IN_LOG_LIMIT } from '../rate-limited-log.js';
import type { Database } from '../storage/database.js';
import { AccountLockout, type FailureWindow } from './account-lockout.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';
import { addressKey, PasswordAttempts } from './password-attempts.js';
import { sha256Hex } from './secret-digest.js';

export interface Account {
  id: number;
  username: string;
  role: string;
}

interface AccountRow extends Account {
  password_hash: string;
}

/** A console session: the cookie value (shown once, stored hashed) and its CSRF token. */
export interface Session {
  token: string;
  csrfToken: string;
  username: string;
  expiresAt: string;
}

export const SESSION_COOKIE = 'vela_session';
const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/**
 * The runtime's administrator accounts, shared by every service's console and admin API
 * (Basic credentials, session sign-in). Passwords are stored as scrypt hashes only.
 */
export class Accounts {
  private readonly lockout: AccountLockout;
  private readonly signInLog: RateLimitedLog;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly attempts = new PasswordAttempts(),
  ) {
    this.lockout = new AccountLockout(db, attempts.limits, attempts.now);
    this.signInLog = new RateLimitedLog(logger, SIGN_IN_LOG_LIMIT);
  }

  /**
   * Make sure the configured administrator exists. The configured password is applied when the account is
   * created, never later: a mistyped VELA_ADMIN_PASSWORD on a later start must not lock out everyone who uses
   * the stored one, so a difference is only a warning naming `vela admin reset-password`. Without a configured
   * password one is generated; it is returned, not logged: the caller shows it once the start has come up
   * (`announceGenerated`), or takes the account back when it did not (`withdrawGenerated`).
   */
  async ensureAdministrator(username: string, password: string | null): Promise<string | null> {
    const existing = await this.db<AccountRow>('runtime_users').where({ username }).first();
    if (!existing) {
      const chosen = password ?? generatePassword();
      try {
        await this.db('runtime_users').insert({ username, password_hash: await hashPassword(chosen), role: 'admin' });
      } catch (error) {
        // Another process sharing this database created the administrator first: use theirs.
        if (await this.db('runtime_users').where({ username }).first()) return null;
        throw error;
      }
      if (password) this.logger.info({ user: username }, 'administrator created with the configured password');
      return password ? null : chosen;
    }
    if (password && !(await verifyPassword(password, existing.password_hash))) {
      this.logger.warn(
        { user: username },
        `the configured administrator password (VELA_ADMIN_PASSWORD or runtime.admin.password) differs from the stored one of "${username}"; the stored one stays in use (the configured one applies at the first start only). To change it: vela admin reset-password`,
      );
    }
    return null;
  }

  announceGenerated(username: string, password: string): void {
    announceGeneratedPassword(this.logger, username, password);
  }

  /**
   * Take back an administrator this start created with a generated password, when the start failed before
   * showing it: the next start creates it again and shows its password. Only while the stored hash is still
   * that password's (no other process or command has changed it since).
   */
  async withdrawGenerated(username: string, password: string): Promise<void> {
    const row = await this.db<AccountRow>('runtime_users').where({ username }).first();
    if (!row || !(await verifyPassword(password, row.password_hash))) return;
    await this.db('runtime_users').where({ id: row.id, password_hash: row.password_hash }).delete();
    this.logger.info(
      { user: username },
      'the start failed: the administrator it created is removed again; the next start generates and shows a new password',
    );
  }

  /**
   * `vela admin reset-password`: a new password for an existing account. Every console session of the account
   * ends and its failed sign-ins are forgotten (a locked-out operator resets to get back in). Returns the number
   * of sessions ended; null when no such account exists.
   */
  async resetPassword(username: string, password: string): Promise<number | null> {
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (trx) => {
      const updated = await trx('runtime_users')
        .where({ username })
        .update({ password_hash: passwordHash, updated_at: trx.fn.now() });
      if (updated === 0) return null;
      const ended = await trx('runtime_sessions').where({ username }).delete();
      await trx('runtime_login_failures').where({ username }).delete();
      return ended;
    });
  }

  /**
   * The account when the password is right; null otherwise (same work either way). Every way of presenting
   * a password comes here with the caller's address: past the failure limits it rejects with 429 before any
   * hashing, and a pair that failed lately is answered wrong without hashing again. A user name or password
   * no account can have (a control character, too long) is wrong at once, without a query.
   */
  async authenticate(username: string, password: string, address?: string): Promise<Account | null> {
    if (!couldBeCredentials(username, password)) return this.failedSignIn(username, address);
    const wait = this.attempts.retryAfterSeconds(address, username);
    if (wait > 0) throw tooManyFailures(wait);
    if (this.attempts.isKnownWrong(username, password)) {
      this.attempts.failed(address, username);
      return this.failedSignIn(username, address);
    }
    const row = await this.findWithFailures(username);
    const where = addressKey(address);
    const userWait = row
      ? await this.lockout.retryAfterSeconds(row.username, row, where)
      : this.attempts.unknownNameRetryAfterSeconds(username);
    if (userWait > 0) throw tooManyFailures(userWait);
    // Hash even for an unknown user, so timing does not tell which usernames exist.
    const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
    if (!row || !ok) {
      this.attempts.failed(address, username, password);
      if (row) await this.lockout.failed(row.username);
      else this.attempts.failedUnknownName(username);
      return this.failedSignIn(username, address);
    }
    this.attempts.succeeded(address, username);
    await this.lockout.succeeded(row.username, where);
    return { id: row.id, username: row.username, role: row.role };
  }

  /**
   * A wrong user name or password, whichever way it was given (console form, GET /api/login, Basic on an admin
   * route): a warn line with the address and the user name as given (bounded, escaped), never the password.
   * Anyone can cause them, so they are rate-limited.
   */
  private failedSignIn(username: string, address: string | undefined): null {
    this.signInLog.warn(
      'sign_in_failed',
      { address: address === undefined ? null : loggableText(address, 100), user: loggableText(username) },
      'sign-in failed: wrong user name or password',
    );
    return null;
  }

  /** The account with its failure window, in one query, so known and unknown names cost the same reads. */
  private findWithFailures(username: string): Promise<(AccountRow & FailureWindow) | undefined> {
    return this.db('runtime_users as u')
      .leftJoin('runtime_login_failures as f', 'f.username', 'u.username')
      .where('u.username', username)
      .first('u.id', 'u.username', 'u.role', 'u.password_hash', 'f.window_start', 'f.failures');
  }

  /** Check an `Authorization: Basic ...` header sent from `address`. */
  async authenticateBasic(header: string | undefined, address?: string): Promise<Account | null> {
    const given = decodeBasic(header);
    if (!given) return null;
    // Without a user name and a colon it is a failed sign-in too (authenticate refuses and logs the other
    // credentials no account can have).
    if (given.password === null) return this.failedSignIn('', address);
    return this.authenticate(given.username, given.password, address);
  }

  /** Open a console session for a signed-in account (cookie value and CSRF token). */
  async createSession(account: Account): Promise<Session> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const created = new Date();
    const expiresAt = new Date(created.getTime() + SESSION_TTL_MS).toISOString();
    await this.db('runtime_sessions').where('expires_at', '<', created.toISOString()).delete();
    await this.db('runtime_sessions').insert({
      id_hash: sha256Hex(token),
      username: account.username,
      csrf_token: csrfToken,
      created_at: created.toISOString(),
      expires_at: expiresAt,
    });
    return { token, csrfToken, username: account.username, expiresAt };
  }

  /** The session a cookie value names, while it has not expired. */
  async findSession(token: string | undefined): Promise<(Session & { account: Account }) | null> {
    if (!token) return null;
    const row = (await this.db('runtime_sessions')
      .where({ id_hash: sha256Hex(token) })
      .first()) as { username: string; csrf_token: string; expires_at: unknown } | undefined;
    if (!row) return null;
    const expiresAt = row.expires_at instanceof Date ? row.expires_at.toISOString() : String(row.expires_at);
    if (Date.parse(expiresAt) < Date.now()) return null;
    const account = await this.find(row.username);
    return account ? { token, csrfToken: row.csrf_token, username: row.username, expiresAt, account } : null;
  }

  async deleteSession(token: string): Promise<void> {
    await this.db('runtime_sessions')
      .where({ id_hash: sha256Hex(token) })
      .delete();
  }

  async find(username: string): Promise<Account | null> {
    const row = await this.db<AccountRow>('runtime_users').select('id', 'username', 'role').where({ username }).first();
    return row ?? null;
  }
}

/** The one time a secret reaches the log, by design: there is no other way to learn a generated password. */
export function announceGeneratedPassword(logger: Logger, username: string, password: string): void {
  logger.warn(`administrator "${username}" created; generated password (shown only this once): ${password}`);
}

/** What a Basic header holds: null when it is no Basic header; a null password when it has no `user:` part. */
function decodeBasic(header: string | undefined): { username: string; password: string | null } | null {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon <= 0
    ? { username: '', password: null }
    : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The user name and password of a Basic header; null when it holds none, or ones no account can have. */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  const given = decodeBasic(header);
  if (given?.password == null || !couldBeCredentials(given.username, given.password)) return null;
  return { username: given.username, password: given.password };
}

/** The user name column's size; no password is longer than this (a bound on what is hashed). */
const MAX_USERNAME = 64;
const MAX_PASSWORD = 4096;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether an account could have these: RFC 7617 allows no control character in either, and PostgreSQL
 * cannot even compare a string holding NUL (it fails the query). Checked before any limit counts or any
 * query runs: such a pair is wrong, never an error.
 */
function couldBeCredentials(username: string, password: string): boolean {
  return (
    username.length <= MAX_USERNAME &&
    password.length <= MAX_PASSWORD &&
    !CONTROL.test(username) &&
    !password.includes('\u0000')
  );
}

const tooManyFailures = (wait: number) =>
  httpErrors.tooManyRequests(`too many failed sign-ins; try again in ${wait} s`, wait);

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** The value of one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

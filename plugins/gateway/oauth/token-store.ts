import { type Changes, col, type Database, rowCodec, toBool, toMillis } from 'vela/plugin';
import type { AppStore } from '../store/app-store.js';
import { newSecret, SECRET_PATTERN, sha256Hex } from './secrets.js';

export type TokenKind = 'access' | 'refresh';

/** An issued token as stored: only its hash. */
export interface IssuedToken {
  tokenHash: string;
  kind: TokenKind;
  appId: string;
  grantType: string;
  codeHash: string | null;
  scope: string | null;
  expiresAt: number;
  revoked: boolean;
  createdAt: number;
}

interface TokenRow {
  token_hash: string;
  kind: TokenKind;
  app_id: string;
  grant_type: string;
  code_hash: string | null;
  scope: string | null;
  expires_at: unknown;
  revoked: unknown;
  created_at: unknown;
  changed_at: unknown;
}

/** An issued token's row; its `changed_at` (the last issue or revocation) is the store's own, for `sync`. */
const tokens = rowCodec<IssuedToken>(
  'gateway_tokens',
  {
    tokenHash: 'token_hash',
    kind: 'kind',
    appId: 'app_id',
    grantType: 'grant_type',
    codeHash: 'code_hash',
    scope: 'scope',
    expiresAt: col.millis('expires_at'),
    revoked: col.bool('revoked'),
    createdAt: col.millis('created_at'),
  },
  'token_hash',
);

// Another process's clock may lag ours a little: look back this far for its changes.
const SYNC_OVERLAP_MS = 5000;
/** The channel revocations are announced on (the revoked hashes, in chunks). */
export const TOKENS_CHANNEL = 'gateway.tokens';
const HASHES_PER_MESSAGE = 80;
/** A revocation is remembered this long, so a store read that started before it cannot make the token live again. */
const REVOKED_MEMORY_MS = 30_000;
/** A bearer value the store did not know is not looked up again for this long. */
const UNKNOWN_MEMORY_MS = 5000;
const UNKNOWN_MEMORY_SIZE = 10_000;
/**
 * Store lookups of unknown bearer values in flight at once. Beyond that a request is answered 503 (retry)
 * without a lookup: a flood of random tokens costs at most this many queries, and a fresh valid token is
 * never refused with a 401 only because the lookups were busy.
 */
export const MAX_BEARER_LOOKUPS = 32;

/**
 * The result of looking a bearer token up in the store: its app, none, the store could not be asked, or
 * too many lookups were in flight to start one more.
 */
export type BearerLookup = { appId: string } | null | 'unavailable' | 'busy';

/**
 * Issued access and refresh tokens, stored as SHA-256 only. The live access tokens are also held
 * in memory (hash → app and expiry), so the proxy checks a bearer token without touching the
 * database; other processes' issues and revocations arrive through `sync` (rows changed since).
 */
export class TokenStore {
  private readonly live = new Map<string, { appId: string; expiresAt: number }>();
  private syncedUntil = 0;
  /** Hashes revoked lately (here or announced by another process) → when. */
  private readonly revokedAt = new Map<string, number>();
  /** Hashes the store did not know → until when that answer stands. */
  private readonly unknownUntil = new Map<string, number>();
  private readonly lookups = new Map<string, Promise<BearerLookup>>();

  constructor(
    private readonly db: Database,
    private readonly apps: AppStore,
    private readonly changes?: Changes,
  ) {}

  async load(): Promise<void> {
    const started = Date.now();
    const rows = await this.db<TokenRow>('gateway_tokens')
      .select('token_hash', 'app_id', 'expires_at')
      .where({ kind: 'access', revoked: false })
      .andWhere('expires_at', '>', started);
    this.live.clear();
    for (const row of rows) this.live.set(row.token_hash, { appId: row.app_id, expiresAt: toMillis(row.expires_at) });
    this.syncedUntil = started;
  }

  /** Apply the tokens issued or revoked (by any process) since the last look; drop expired ones. */
  async sync(): Promise<void> {
    const started = Date.now();
    const rows = await this.db<TokenRow>('gateway_tokens')
      .select('token_hash', 'kind', 'app_id', 'expires_at', 'revoked')
      .where('changed_at', '>=', this.syncedUntil - SYNC_OVERLAP_MS);
    for (const row of rows) {
      if (row.kind !== 'access') continue;
      if (toBool(row.revoked)) this.live.delete(row.token_hash);
      else if (!this.revokedAt.has(row.token_hash))
        this.live.set(row.token_hash, { appId: row.app_id, expiresAt: toMillis(row.expires_at) });
    }
    for (const [hash, token] of this.live) if (token.expiresAt <= started) this.live.delete(hash);
    for (const [hash, at] of this.revokedAt) if (at < started - REVOKED_MEMORY_MS) this.revokedAt.delete(hash);
    for (const [hash, until] of this.unknownUntil) if (until <= started) this.unknownUntil.delete(hash);
    this.syncedUntil = started;
  }

  /** Revocations another process announced: refused here from now on. */
  forgetRevoked(hashes: readonly string[]): void {
    const at = Date.now();
    for (const hash of hashes) {
      this.live.delete(hash);
      this.revokedAt.set(hash, at);
    }
  }

  /**
   * A bearer token this process does not hold in memory (issued by another process a moment ago, or an app
   * token it has not reloaded yet), looked up in the store before it is refused: found, it is held in memory
   * from now on. Unknown values are remembered a few seconds and lookups in flight are bounded, so a client
   * sending random tokens costs at most that many queries.
   */
  lookupBearer(token: string): Promise<BearerLookup> {
    if (!SECRET_PATTERN.test(token)) return Promise.resolve(null);
    const hash = sha256Hex(token);
    const known = this.appOfHash(hash);
    if (known) return Promise.resolve({ appId: known });
    if (this.revokedAt.has(hash) || (this.unknownUntil.get(hash) ?? 0) > Date.now()) return Promise.resolve(null);
    const pending = this.lookups.get(hash);
    if (pending) return pending;
    if (this.lookups.size >= MAX_BEARER_LOOKUPS) return Promise.resolve('busy');
    const lookup = this.lookupInStore(token, hash).finally(() => this.lookups.delete(hash));
    this.lookups.set(hash, lookup);
    return lookup;
  }

  private async lookupInStore(token: string, hash: string): Promise<BearerLookup> {
    const started = Date.now();
    let row: Pick<TokenRow, 'app_id' | 'kind' | 'expires_at' | 'revoked'> | undefined;
    let ownApp: { id: string } | undefined;
    try {
      row = await this.db<TokenRow>('gateway_tokens')
        .select('app_id', 'kind', 'expires_at', 'revoked')
        .where({ token_hash: hash })
        .first();
      if (!row) ownApp = await this.db('gateway_apps').select('id').where({ access_token: token }).first();
    } catch {
      return 'unavailable';
    }
    if (
      row &&
      row.kind === 'access' &&
      !toBool(row.revoked) &&
      toMillis(row.expires_at) > started &&
      !this.revokedAt.has(hash)
    ) {
      this.live.set(hash, { appId: row.app_id, expiresAt: toMillis(row.expires_at) });
      if (!this.apps.find(row.app_id)) await this.apps.load().catch(() => undefined);
      const appId = this.appOfHash(hash);
      return appId ? { appId } : null;
    }
    if (ownApp) {
      // An app token set by another process: this process's copy of the apps is behind.
      await this.apps.load().catch(() => undefined);
      const appId = this.appOfHash(hash);
      if (appId) return { appId };
    }
    if (this.unknownUntil.size >= UNKNOWN_MEMORY_SIZE) this.unknownUntil.clear();
    this.unknownUntil.set(hash, started + UNKNOWN_MEMORY_MS);
    return null;
  }

  /** Which app a bearer token belongs to: an unexpired, unrevoked issued token or an app's own token. */
  appOfBearer(token: string): string | null {
    if (!SECRET_PATTERN.test(token)) return null;
    return this.appOfHash(sha256Hex(token));
  }

  private appOfHash(hash: string): string | null {
    const issued = this.live.get(hash);
    if (issued) {
      if (issued.expiresAt > Date.now() && this.apps.find(issued.appId)) return issued.appId;
      return null;
    }
    return this.apps.appOfOwnToken(hash) ?? null;
  }

  async issue(
    kind: TokenKind,
    appId: string,
    grantType: string,
    ttlSeconds: number,
    extra: { codeHash?: string; scope?: string | null } = {},
  ): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret();
    const now = Date.now();
    const expiresAt = now + ttlSeconds * 1000;
    const tokenHash = sha256Hex(token);
    const issued = { tokenHash, kind, appId, grantType, expiresAt, revoked: false, createdAt: now };
    const row = tokens.toRow({ ...issued, codeHash: extra.codeHash ?? null, scope: extra.scope ?? null });
    await this.db('gateway_tokens').insert({ ...row, changed_at: now });
    if (kind === 'access') this.live.set(tokenHash, { appId, expiresAt });
    return { token, expiresAt };
  }

  /** The stored record of a token value, if it was ever issued. */
  async find(token: string): Promise<IssuedToken | null> {
    if (!SECRET_PATTERN.test(token)) return null;
    return (await tokens.first(this.db(tokens.table).where({ token_hash: sha256Hex(token) }))) ?? null;
  }

  /** Delete tokens that expired more than a day ago (none of them can be used or introspected as active). */
  async prune(): Promise<number> {
    return Number(
      await this.db('gateway_tokens')
        .where('expires_at', '<', Date.now() - 86_400_000)
        .delete(),
    );
  }

  /** Revoke one token; true when this call revoked it (so a refresh token is used only once). */
  async revoke(tokenHash: string): Promise<boolean> {
    const changed = await this.db('gateway_tokens')
      .where({ token_hash: tokenHash, revoked: false })
      .update({ revoked: true, changed_at: Date.now() });
    this.forgetRevoked([tokenHash]);
    if (Number(changed) > 0) await this.announce([tokenHash]);
    return Number(changed) > 0;
  }

  /** Tell the other processes (the poll of `gateway_tokens` stays the safety net). */
  private async announce(hashes: string[]): Promise<void> {
    if (!this.changes || hashes.length === 0) return;
    // Past a few messages, the other processes are better off reading the changed rows (their sync).
    if (hashes.length > HASHES_PER_MESSAGE * 8) {
      await this.changes.publish(TOKENS_CHANNEL, { sync: true });
      return;
    }
    for (let i = 0; i < hashes.length; i += HASHES_PER_MESSAGE)
      await this.changes.publish(TOKENS_CHANNEL, { revoked: hashes.slice(i, i + HASHES_PER_MESSAGE) });
  }

  /** Revoke every token issued from an authorization code (RFC 6749 §4.1.2: the code was replayed). */
  async revokeFromCode(codeHash: string): Promise<void> {
    await this.revokeWhere({ code_hash: codeHash });
  }

  /** Revoke every token issued to an app. */
  async revokeApp(appId: string): Promise<number> {
    return this.revokeWhere({ app_id: appId });
  }

  /**
   * Revoke in the store first, then forget in memory what the store now holds revoked: a token issued
   * in between is either in both or in neither (reading the hashes first missed one issued between
   * the read and the update, revoked in the store but still live here).
   */
  private async revokeWhere(where: Record<string, string>): Promise<number> {
    const at = Date.now();
    const changed = Number(
      await this.db('gateway_tokens')
        .where({ ...where, revoked: false })
        .update({ revoked: true, changed_at: at }),
    );
    if (changed === 0) return 0;
    const revoked = await this.db<TokenRow>('gateway_tokens')
      .select('token_hash', 'changed_at')
      .where({ ...where, kind: 'access', revoked: true });
    this.forgetRevoked(revoked.map((row) => row.token_hash));
    // Announced: the ones this call revoked (the others were announced when they were revoked).
    await this.announce(revoked.filter((row) => toMillis(row.changed_at) >= at).map((row) => row.token_hash));
    return changed;
  }
}

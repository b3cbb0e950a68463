import type { Database } from 'vela/plugin';
import type { AppStore } from '../store/app-store.js';
import { toMillis } from '../store/clock.js';
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

// Another process's clock may lag ours a little: look back this far for its changes.
const SYNC_OVERLAP_MS = 5000;

/**
 * Issued access and refresh tokens, stored as SHA-256 only. The live access tokens are also held
 * in memory (hash → app and expiry), so the proxy checks a bearer token without touching the
 * database; other processes' issues and revocations arrive through `sync` (rows changed since).
 */
export class TokenStore {
  private readonly live = new Map<string, { appId: string; expiresAt: number }>();
  private syncedUntil = 0;

  constructor(
    private readonly db: Database,
    private readonly apps: AppStore,
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
      if (isTrue(row.revoked)) this.live.delete(row.token_hash);
      else this.live.set(row.token_hash, { appId: row.app_id, expiresAt: toMillis(row.expires_at) });
    }
    for (const [hash, token] of this.live) if (token.expiresAt <= started) this.live.delete(hash);
    this.syncedUntil = started;
  }

  /** Which app a bearer token belongs to: an unexpired, unrevoked issued token or an app's own token. */
  appOfBearer(token: string): string | null {
    if (!SECRET_PATTERN.test(token)) return null;
    const hash = sha256Hex(token);
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
    await this.db('gateway_tokens').insert({
      token_hash: tokenHash,
      kind,
      app_id: appId,
      grant_type: grantType,
      code_hash: extra.codeHash ?? null,
      scope: extra.scope ?? null,
      expires_at: expiresAt,
      revoked: false,
      created_at: now,
      changed_at: now,
    });
    if (kind === 'access') this.live.set(tokenHash, { appId, expiresAt });
    return { token, expiresAt };
  }

  /** The stored record of a token value, if it was ever issued. */
  async find(token: string): Promise<IssuedToken | null> {
    if (!SECRET_PATTERN.test(token)) return null;
    const row = await this.db<TokenRow>('gateway_tokens')
      .where({ token_hash: sha256Hex(token) })
      .first();
    return row ? toIssued(row) : null;
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
    const changed = await this.db('gateway_tokens').where({ token_hash: tokenHash, revoked: false }).update({ revoked: true, changed_at: Date.now() });
    this.live.delete(tokenHash);
    return Number(changed) > 0;
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
    const changed = Number(
      await this.db('gateway_tokens')
        .where({ ...where, revoked: false })
        .update({ revoked: true, changed_at: Date.now() }),
    );
    if (changed === 0) return 0;
    const revoked = await this.db<TokenRow>('gateway_tokens')
      .select('token_hash')
      .where({ ...where, kind: 'access', revoked: true });
    for (const row of revoked) this.live.delete(row.token_hash);
    return changed;
  }
}

const isTrue = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 't';

function toIssued(row: TokenRow): IssuedToken {
  return {
    tokenHash: row.token_hash,
    kind: row.kind,
    appId: row.app_id,
    grantType: row.grant_type,
    codeHash: row.code_hash ?? null,
    scope: row.scope ?? null,
    expiresAt: toMillis(row.expires_at),
    revoked: isTrue(row.revoked),
    createdAt: toMillis(row.created_at),
  };
}

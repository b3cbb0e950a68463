import { type Database, toMillis } from 'vela/plugin';
import { newSecret, SECRET_PATTERN, sha256Hex } from './secrets.js';

export interface AuthorizationCode {
  codeHash: string;
  appId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scope: string | null;
  expiresAt: number;
}

interface CodeRow {
  code_hash: string;
  app_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  scope: string | null;
  expires_at: unknown;
  used_at: unknown;
}

export type Redemption =
  | { outcome: 'redeemed'; code: AuthorizationCode }
  | { outcome: 'unknown' }
  | { outcome: 'expired' }
  | { outcome: 'replayed'; code: AuthorizationCode };

/**
 * Authorization codes: stored as SHA-256, bound to their app and redirect_uri (and PKCE challenge),
 * usable once before they expire. Redeeming is one conditional UPDATE, so two concurrent
 * redemptions (even in two processes) cannot both win.
 */
export class CodeStore {
  constructor(private readonly db: Database) {}

  async create(
    appId: string,
    redirectUri: string,
    ttlSeconds: number,
    extra: { codeChallenge: string | null; scope: string | null },
  ): Promise<string> {
    const code = newSecret();
    const now = Date.now();
    // Expired codes are of no use to anyone: clear them while writing a new one.
    await this.db('gateway_codes')
      .where('expires_at', '<', now - 3_600_000)
      .delete();
    await this.db('gateway_codes').insert({
      code_hash: sha256Hex(code),
      app_id: appId,
      redirect_uri: redirectUri,
      code_challenge: extra.codeChallenge,
      scope: extra.scope,
      expires_at: now + ttlSeconds * 1000,
      used_at: null,
    });
    return code;
  }

  /** Claim a code; `check` (client and redirect_uri binding, PKCE) runs first and may refuse without using it up. */
  async redeem(code: string, check: (found: AuthorizationCode) => void): Promise<Redemption> {
    if (!SECRET_PATTERN.test(code)) return { outcome: 'unknown' };
    const codeHash = sha256Hex(code);
    const row = await this.db<CodeRow>('gateway_codes').where({ code_hash: codeHash }).first();
    if (!row) return { outcome: 'unknown' };
    const found = toCode(row);
    if (row.used_at !== null && row.used_at !== undefined) return { outcome: 'replayed', code: found };
    if (found.expiresAt <= Date.now()) return { outcome: 'expired' };
    check(found);
    const claimed = await this.db('gateway_codes')
      .where({ code_hash: codeHash })
      .whereNull('used_at')
      .update({ used_at: Date.now() });
    return Number(claimed) === 1 ? { outcome: 'redeemed', code: found } : { outcome: 'replayed', code: found };
  }
}

function toCode(row: CodeRow): AuthorizationCode {
  return {
    codeHash: row.code_hash,
    appId: row.app_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge ?? null,
    scope: row.scope ?? null,
    expiresAt: toMillis(row.expires_at),
  };
}

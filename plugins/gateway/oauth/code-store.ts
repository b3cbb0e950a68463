import { col, type Database, rowCodec } from 'vela/plugin';
import { newSecret, SECRET_PATTERN, sha256Hex } from './secrets.js';

export interface AuthorizationCode {
  codeHash: string;
  appId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scope: string | null;
  expiresAt: number;
}

/** A code's row; its `used_at` (null until it is redeemed) is the store's own. */
const codes = rowCodec<AuthorizationCode>(
  'gateway_codes',
  {
    codeHash: 'code_hash',
    appId: 'app_id',
    redirectUri: 'redirect_uri',
    codeChallenge: 'code_challenge',
    scope: 'scope',
    expiresAt: col.millis('expires_at'),
  },
  'code_hash',
);

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
    const row = codes.toRow({
      codeHash: sha256Hex(code),
      appId,
      redirectUri,
      ...extra,
      expiresAt: now + ttlSeconds * 1000,
    });
    await this.db('gateway_codes').insert({ ...row, used_at: null });
    return code;
  }

  /** Claim a code; `check` (client and redirect_uri binding, PKCE) runs first and may refuse without using it up. */
  async redeem(code: string, check: (found: AuthorizationCode) => void): Promise<Redemption> {
    if (!SECRET_PATTERN.test(code)) return { outcome: 'unknown' };
    const codeHash = sha256Hex(code);
    const row = await this.db('gateway_codes').where({ code_hash: codeHash }).first();
    if (!row) return { outcome: 'unknown' };
    const found = codes.fromRow(row);
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

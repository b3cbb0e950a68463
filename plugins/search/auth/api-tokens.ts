import { randomBytes, randomUUID } from 'node:crypto';
import { type Database, httpErrors, type Principal, sha256Hex } from 'vela/plugin';
import type { SearchKeys } from '../api.js';
import { searchErrors } from '../errors.js';
import { MemoryWrites } from '../store/memory-writes.js';
import { now, toIso } from '../store/timestamps.js';

/** Store lookups of unknown Key values in flight at once (see verifyOrLookup). */
export const MAX_KEY_LOOKUPS = 32;

export interface ApiToken {
  id: string;
  title: string;
  description: string;
  /** The first characters of the token, to tell tokens apart in a list. */
  tokenHint: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  /** What the token may do: `search` (reads), `import`, `connector`, `admin` (everything). */
  scopes: TokenScope[];
}

/** The scopes an API token can have; routes name the one they need, and `admin` covers them all. */
export const TOKEN_SCOPES = ['search', 'import', 'connector', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

interface TokenRow {
  id: string;
  title: string;
  description: string | null;
  token_hash: string;
  token_hint: string;
  created_by: string;
  created_at: unknown;
  updated_at: unknown;
  last_used_at: unknown;
  scopes: string;
}

interface KnownToken {
  id: string;
  createdBy: string;
  scopes: TokenScope[];
}

/**
 * API tokens for the Key header. The value is 192 bits from the CSPRNG, shown once when created;
 * only its SHA-256 is stored, and the hashes are held in memory so a request is checked without a
 * database round trip.
 */
export class ApiTokens implements SearchKeys {
  private readonly byHash = new Map<string, KnownToken>();
  private readonly lastTouched = new Map<string, number>();
  /** Hashes the store did not know → until when that answer stands (see verifyOrLookup). */
  private readonly unknownUntil = new Map<string, number>();
  private readonly lookups = new Map<string, Promise<Principal | null>>();
  private readonly writes = new MemoryWrites();
  /** Called after each write of this process: announce it to the others. */
  onWrite: (() => void) | null = null;

  constructor(private readonly db: Database) {}

  /** (Re)load the hashes; a token revoked by another process stops working here at the next load. */
  async load(): Promise<void> {
    const rows = await this.writes.settled(
      () => this.db<TokenRow>('search_api_tokens').select('id', 'token_hash', 'created_by', 'scopes') as Promise<TokenRow[]>,
    );
    if (!rows) return;
    const fresh = new Map(rows.map((row) => [row.token_hash, { id: row.id, createdBy: row.created_by, scopes: scopesOf(row.scopes) }]));
    this.byHash.clear();
    for (const [hash, token] of fresh) this.byHash.set(hash, token);
  }

  async list(): Promise<ApiToken[]> {
    return (await this.db<TokenRow>('search_api_tokens').select().orderBy('created_at')).map(toToken);
  }

  async get(id: string): Promise<ApiToken> {
    const row = await this.db<TokenRow>('search_api_tokens').where({ id }).first();
    if (!row) throw searchErrors.tokenNotFound(id);
    return toToken(row);
  }

  /** Create a token; the returned `token` is the only time its value is shown. */
  async create(title: string, description: string, createdBy: string, scopes: TokenScope[] = ['search']): Promise<ApiToken & { token: string }> {
    const token = randomBytes(24).toString('base64url');
    const id = randomUUID();
    const stamp = now();
    const hash = sha256Hex(token);
    await this.db('search_api_tokens').insert({
      id,
      title,
      description,
      token_hash: hash,
      token_hint: token.slice(0, 6),
      created_by: createdBy,
      created_at: stamp,
      updated_at: stamp,
      scopes: JSON.stringify(scopes),
    });
    this.byHash.set(hash, { id, createdBy, scopes });
    this.writes.mark();
    this.onWrite?.();
    return { ...(await this.get(id)), token };
  }

  async update(id: string, patch: { title?: string; description?: string; scopes?: TokenScope[] }): Promise<ApiToken> {
    await this.get(id);
    const changes: Record<string, unknown> = { updated_at: now() };
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.scopes !== undefined) changes.scopes = JSON.stringify(patch.scopes);
    await this.db('search_api_tokens').where({ id }).update(changes);
    if (patch.scopes !== undefined) {
      // A narrower token takes effect at once in this process (others see it at their next load).
      for (const known of this.byHash.values()) if (known.id === id) known.scopes = patch.scopes;
      this.writes.mark();
      this.onWrite?.();
    }
    return this.get(id);
  }

  async delete(id: string): Promise<ApiToken> {
    const token = await this.get(id);
    const row = await this.db<TokenRow>('search_api_tokens').where({ id }).first();
    await this.db('search_api_tokens').where({ id }).delete();
    if (row) this.byHash.delete(row.token_hash);
    this.writes.mark();
    this.onWrite?.();
    return token;
  }

  /**
   * `verify`, and for a key this process does not hold (created by another process a moment ago) one look in
   * the store before it is refused. Unknown keys are remembered a few seconds and lookups in flight are
   * bounded, so random keys cost at most that many queries. Beyond the bound, or when the store cannot be
   * asked, the answer is a 503 to retry, not a 401: a valid key is never refused for want of a lookup.
   */
  verifyOrLookup(key: string): Principal | null | Promise<Principal | null> {
    const known = this.verify(key);
    if (known) return known;
    const hash = sha256Hex(key);
    const at = Date.now();
    if ((this.unknownUntil.get(hash) ?? 0) > at) return null;
    const pending = this.lookups.get(hash);
    if (pending) return pending;
    if (this.lookups.size >= MAX_KEY_LOOKUPS)
      return Promise.reject(
        httpErrors
          .unavailable('the key could not be checked now: too many unknown keys are being looked up; retry shortly')
          .withHeaders({ 'Retry-After': '1' }),
      );
    const lookup = (async () => {
      const row = await this.db<TokenRow>('search_api_tokens').select('id', 'token_hash', 'created_by', 'scopes').where({ token_hash: hash }).first();
      if (!row) {
        if (this.unknownUntil.size >= 10_000) this.unknownUntil.clear();
        this.unknownUntil.set(hash, at + 5000);
        return null;
      }
      this.byHash.set(hash, { id: row.id, createdBy: row.created_by, scopes: scopesOf(row.scopes) });
      return this.verify(key);
    })()
      .catch((error: Error) => {
        throw httpErrors
          .unavailable(`the key could not be checked: the search store is unreachable (${error.message}); retry shortly`)
          .withHeaders({ 'Retry-After': '2' });
      })
      .finally(() => this.lookups.delete(hash));
    this.lookups.set(hash, lookup);
    return lookup;
  }

  /** Who a Key header value stands for, if it is a token. A map lookup by hash: no timing signal on the value. */
  verify(key: string): Principal | null {
    const found = this.byHash.get(sha256Hex(key));
    if (!found) return null;
    this.touch(found.id);
    return { username: found.createdBy, via: 'key', tokenId: found.id, scopes: found.scopes };
  }

  /** Record use at most once a minute per token, off the request path. */
  private touch(id: string): void {
    const last = this.lastTouched.get(id) ?? 0;
    if (Date.now() - last < 60_000) return;
    this.lastTouched.set(id, Date.now());
    void this.db('search_api_tokens')
      .where({ id })
      .update({ last_used_at: now() })
      .catch(() => undefined);
  }
}

function toToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    title: row.title,
    description: row.description ?? '',
    tokenHint: row.token_hint,
    createdBy: row.created_by,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    lastUsedAt: row.last_used_at ? toIso(row.last_used_at) : null,
    scopes: scopesOf(row.scopes),
  };
}

/** A stored scope list; anything unreadable counts as no scope at all, never as more. */
function scopesOf(stored: string): TokenScope[] {
  try {
    const parsed = JSON.parse(stored) as unknown;
    return Array.isArray(parsed) ? parsed.filter((s): s is TokenScope => (TOKEN_SCOPES as readonly unknown[]).includes(s)) : [];
  } catch {
    return [];
  }
}

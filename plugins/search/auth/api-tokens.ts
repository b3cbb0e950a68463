import { randomBytes, randomUUID } from 'node:crypto';
import {
  CachedTable,
  type Database,
  httpErrors,
  isCorruptRow,
  type Logger,
  nowIso,
  type Principal,
  readJson,
  sha256Hex,
  toIso,
  toIsoOrNull,
  writeJson,
} from 'vela/plugin';
import type { SearchKeys } from '../api.js';
import { searchErrors } from '../errors.js';

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
  scopes: unknown;
}

const TABLE = 'search_api_tokens';

/** The columns a request's check reads. */
type KeyRow = Pick<TokenRow, 'id' | 'token_hash' | 'created_by' | 'scopes'>;

interface KnownToken {
  id: string;
  hash: string;
  createdBy: string;
  scopes: TokenScope[];
}

/**
 * API tokens for the Key header. The value is 192 bits from the CSPRNG, shown once when created;
 * only its SHA-256 is stored, and the hashes are held in memory so a request is checked without a
 * database round trip.
 */
export class ApiTokens implements SearchKeys {
  private readonly byHash: CachedTable<KeyRow, KnownToken>;
  private readonly lastTouched = new Map<string, number>();
  /** Hashes the store did not know → until when that answer stands (see verifyOrLookup). */
  private readonly unknownUntil = new Map<string, number>();
  private readonly lookups = new Map<string, Promise<Principal | null>>();
  /** Called after each committed write of this process: announce it to the others. */
  onWrite: (() => void) | null = null;

  constructor(
    private readonly db: Database,
    logger: Logger,
  ) {
    this.byHash = new CachedTable({
      db,
      table: TABLE,
      keyOf: (row) => row.token_hash,
      fromRow: knownToken,
      logger,
      query: (q) => q.select('id', 'token_hash', 'created_by', 'scopes'),
    });
  }

  /** (Re)load the hashes; a token revoked by another process stops working here at the next load. */
  load(): Promise<void> {
    return this.byHash.load();
  }

  async list(): Promise<ApiToken[]> {
    return (await this.db<TokenRow>(TABLE).select().orderBy('created_at')).map(toToken);
  }

  async get(id: string): Promise<ApiToken> {
    const row = await this.db<TokenRow>(TABLE).where({ id }).first();
    if (!row) throw searchErrors.tokenNotFound(id);
    return toToken(row);
  }

  /** Create a token; the returned `token` is the only time its value is shown. */
  async create(
    title: string,
    description: string,
    createdBy: string,
    scopes: TokenScope[] = ['search'],
  ): Promise<ApiToken & { token: string }> {
    const token = randomBytes(24).toString('base64url');
    const id = randomUUID();
    const stamp = nowIso();
    const hash = sha256Hex(token);
    await this.db(TABLE).insert({
      id,
      title,
      description,
      token_hash: hash,
      token_hint: token.slice(0, 6),
      created_by: createdBy,
      created_at: stamp,
      updated_at: stamp,
      scopes: writeJson(scopes),
    });
    this.byHash.set(hash, { id, hash, createdBy, scopes });
    this.onWrite?.();
    return { ...(await this.get(id)), token };
  }

  async update(id: string, patch: { title?: string; description?: string; scopes?: TokenScope[] }): Promise<ApiToken> {
    await this.get(id);
    const changes: Record<string, unknown> = { updated_at: nowIso() };
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.scopes !== undefined) changes.scopes = writeJson(patch.scopes);
    await this.db(TABLE).where({ id }).update(changes);
    if (patch.scopes !== undefined) {
      // A narrower token takes effect at once in this process (others see it at their next load).
      for (const known of this.byHash.values())
        if (known.id === id) this.byHash.set(known.hash, { ...known, scopes: patch.scopes });
      this.onWrite?.();
    }
    return this.get(id);
  }

  async delete(id: string): Promise<ApiToken> {
    const token = await this.get(id);
    const row = await this.db<TokenRow>(TABLE).where({ id }).first();
    await this.db(TABLE).where({ id }).delete();
    if (row) this.byHash.delete(row.token_hash);
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
      const row = await this.db<TokenRow>(TABLE)
        .select('id', 'token_hash', 'created_by', 'scopes')
        .where({ token_hash: hash })
        .first();
      const token = row && readableToken(row);
      if (!token) {
        if (this.unknownUntil.size >= 10_000) this.unknownUntil.clear();
        this.unknownUntil.set(hash, at + 5000);
        return null;
      }
      this.byHash.set(hash, token);
      return this.verify(key);
    })()
      .catch((error: Error) => {
        throw httpErrors
          .unavailable(
            `the key could not be checked: the search store is unreachable (${error.message}); retry shortly`,
          )
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
    void this.db(TABLE)
      .where({ id })
      .update({ last_used_at: nowIso() })
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
    lastUsedAt: toIsoOrNull(row.last_used_at),
    scopes: scopesOf(row),
  };
}

/** What a request's check needs of a token; a corrupt row throws (the cached table skips it: no access). */
function knownToken(row: KeyRow): KnownToken {
  return { id: row.id, hash: row.token_hash, createdBy: row.created_by, scopes: scopesOf(row) };
}

/** The token a lookup found, or null for a corrupt row: refused like an unknown key, never granted more. */
function readableToken(row: KeyRow): KnownToken | null {
  try {
    return knownToken(row);
  } catch (error) {
    if (isCorruptRow(error)) return null;
    throw error;
  }
}

/** A stored scope list: names that are no scope count as none, never as more. */
function scopesOf(row: KeyRow): TokenScope[] {
  const parsed = readJson<unknown>(row.scopes, { table: TABLE, column: 'scopes', row: row.id });
  return Array.isArray(parsed)
    ? parsed.filter((s): s is TokenScope => (TOKEN_SCOPES as readonly unknown[]).includes(s))
    : [];
}

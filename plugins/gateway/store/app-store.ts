import { randomUUID } from 'node:crypto';
import { CachedTable, col, type Database, type Logger, nowIso, rowCodec, type TableRow } from 'vela/plugin';
import { gatewayErrors } from '../errors.js';
import { newSecret, sha256Hex } from '../oauth/secrets.js';
import type { ChangeVersions } from './change-versions.js';

/** An application: its OAuth2 client credentials and its own bearer token, as the administrator sees them. */
export interface App {
  id: string;
  name: string;
  description: string;
  callbackUrls: string[];
  /** Consumer Key: the client_id. */
  apiKey: string;
  /** Consumer Secret: the client_secret. */
  apiSecret: string;
  /** The app's own bearer token; null after DELETE /{id}/accessTokens until gen_token. */
  accessToken: string | null;
  accessTokenSecret: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AppInput {
  name: string;
  description?: string;
  callbackUrls?: string[];
}

const apps = rowCodec<App>('gateway_apps', {
  id: 'id',
  name: 'name',
  description: col.text('description'),
  callbackUrls: col.json('callback_urls'),
  apiKey: 'api_key',
  apiSecret: 'api_secret',
  accessToken: 'access_token',
  accessTokenSecret: 'access_token_secret',
  createdAt: col.timestamp('created_at'),
  updatedAt: col.timestamp('updated_at'),
});

/**
 * The apps, in the store and in memory: the authorize and token endpoints find a client by its
 * key, and the proxy finds an app's own token by the token's hash, without a database round trip.
 */
export class AppStore {
  private byId = new Map<string, App>();
  private byApiKey = new Map<string, App>();
  private byOwnTokenHash = new Map<string, string>();
  private readonly table: CachedTable<TableRow, App>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    logger: Logger,
  ) {
    this.table = new CachedTable({ db, ...apps, logger, query: (q) => q.orderBy('created_at') });
  }

  async load(): Promise<void> {
    await this.table.load();
    const apps = this.table.values();
    this.byId = new Map(apps.map((a) => [a.id, a]));
    this.byApiKey = new Map(apps.map((a) => [a.apiKey, a]));
    this.byOwnTokenHash = new Map(apps.filter((a) => a.accessToken).map((a) => [sha256Hex(a.accessToken!), a.id]));
  }

  list(): App[] {
    return [...this.byId.values()];
  }

  get(id: string): App {
    const app = this.byId.get(id);
    if (!app) throw gatewayErrors.appNotFound(id);
    return app;
  }

  find(id: string): App | undefined {
    return this.byId.get(id);
  }

  /** The app whose Consumer Key this is (the key is an identifier, not a secret). */
  findByApiKey(apiKey: string): App | undefined {
    return this.byApiKey.get(apiKey);
  }

  /**
   * Before a client is refused: an app (or new credentials) created by another process a moment ago is
   * not in this process's memory yet. When the store holds this Consumer Key with other credentials than
   * memory, reload. One look per key a second at most, so wrong credentials cost little.
   */
  async catchUp(apiKey: string | null | undefined, apiSecret?: string | null): Promise<void> {
    if (!apiKey) return;
    const known = this.byApiKey.get(apiKey);
    if (known && (apiSecret == null || known.apiSecret === apiSecret)) return;
    const at = Date.now();
    if ((this.checkedAt.get(apiKey) ?? 0) > at - 1000) return;
    if (this.checkedAt.size >= 10_000) this.checkedAt.clear();
    this.checkedAt.set(apiKey, at);
    const row = await this.db(apps.table).select('id', 'api_secret').where({ api_key: apiKey }).first();
    if (row && (!known || known.apiSecret !== row.api_secret)) await this.load();
  }

  private readonly checkedAt = new Map<string, number>();

  /** The app whose own Access Token has this SHA-256. */
  appOfOwnToken(tokenHash: string): string | undefined {
    return this.byOwnTokenHash.get(tokenHash);
  }

  async create(input: AppInput): Promise<App> {
    const stamp = nowIso();
    const app: App = {
      id: randomUUID(),
      name: input.name,
      description: input.description ?? '',
      callbackUrls: checkCallbackUrls(input.callbackUrls ?? []),
      apiKey: newSecret(),
      apiSecret: newSecret(),
      accessToken: newSecret(),
      accessTokenSecret: newSecret(),
      createdAt: stamp,
      updatedAt: stamp,
    };
    await this.db(apps.table).insert(apps.toRow(app));
    await this.changed();
    return this.get(app.id);
  }

  async update(id: string, { name, description, callbackUrls }: Partial<AppInput>): Promise<App> {
    this.get(id);
    return this.change(id, { name, description, callbackUrls: callbackUrls && checkCallbackUrls(callbackUrls) });
  }

  /** New Consumer Key and Secret; tokens already issued to the app stay valid. */
  genKey(id: string): Promise<App> {
    return this.change(id, { apiKey: newSecret(), apiSecret: newSecret() });
  }

  /** New own Access Token and its secret; the old one stops working at once. */
  genToken(id: string): Promise<App> {
    return this.change(id, { accessToken: newSecret(), accessTokenSecret: newSecret() });
  }

  /** Withdraw the app's own Access Token (issued tokens are revoked by the token store). */
  clearOwnToken(id: string): Promise<App> {
    return this.change(id, { accessToken: null, accessTokenSecret: null });
  }

  async delete(id: string): Promise<App> {
    const app = this.get(id);
    await this.db.transaction(async (trx) => {
      await trx('gateway_codes').where({ app_id: id }).delete();
      await trx('gateway_tokens').where({ app_id: id }).update({ revoked: true, changed_at: Date.now() });
      await trx('gateway_apps').where({ id }).delete();
    });
    await this.changed();
    return app;
  }

  /** Sets the fields `patch` gives (undefined ones keep their value) and the update time. */
  private async change(id: string, patch: Partial<App>): Promise<App> {
    this.get(id);
    await this.db(apps.table)
      .where({ id })
      .update(apps.toColumns({ ...patch, updatedAt: nowIso() }));
    await this.changed();
    return this.get(id);
  }

  private async changed(): Promise<void> {
    await this.versions.bump('apps');
    await this.load();
  }
}

/** Callback URLs are compared exactly at authorize time; each must be absolute and without a fragment. */
function checkCallbackUrls(urls: string[]): string[] {
  urls.forEach((value, i) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw gatewayErrors.invalidField(`callbackUrls[${i}]`, `must be an absolute URL, got ${JSON.stringify(value)}`);
    }
    // An empty fragment ("https://a/cb#") leaves url.hash empty, but a code would still land after the "#".
    if (value.includes('#')) throw gatewayErrors.invalidField(`callbackUrls[${i}]`, 'must not have a #fragment');
    // It is compared exactly, and the URL parser would drop these without a word.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check refuses
    if (/[\s\u0000-\u001f\u007f]/.test(value))
      throw gatewayErrors.invalidField(
        `callbackUrls[${i}]`,
        `must not contain spaces or control characters, got ${JSON.stringify(value)}`,
      );
    if (/^(javascript|data|vbscript):$/i.test(url.protocol))
      throw gatewayErrors.invalidField(`callbackUrls[${i}]`, `must not use the ${url.protocol} scheme`);
  });
  return urls;
}

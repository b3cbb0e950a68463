import { type Changes, type Logger, StoreRefresh } from 'vela/plugin';
import { TOKENS_CHANNEL, type TokenStore } from './oauth/token-store.js';
import type { AppStore } from './store/app-store.js';
import { type ChangeVersions, VERSIONS_CHANNEL } from './store/change-versions.js';
import type { MappingStore } from './store/mapping-store.js';

/**
 * Keeps this process's in-memory mappings, apps and tokens in step with writes made by other
 * processes sharing the database: a cheap version check (one small SELECT) plus the tokens changed
 * since the last look, every `syncMs`, and at once when another process announces a change on the
 * runtime's `changes` feed (PostgreSQL LISTEN/NOTIFY). Writes made here update memory at once without it.
 * The following, the poll and the logging of failures are the runtime's StoreRefresh.
 */
export class StateSync {
  private changes: Changes | undefined;
  private refresher: StoreRefresh | null = null;

  constructor(
    private readonly versions: ChangeVersions,
    private readonly mappings: MappingStore,
    private readonly apps: AppStore,
    private readonly tokens: TokenStore,
    private readonly logger: Logger,
  ) {}

  /** Load everything once (and remember the versions seen). */
  async load(): Promise<void> {
    await this.versions.changed();
    await Promise.all([this.mappings.load(), this.apps.load(), this.tokens.load()]);
  }

  /**
   * Follow the other processes' announcements (from `start` on): a bump of mappings or apps runs a sync at
   * once; a revocation takes its hashes out of memory without a query; a feed that was cut and is back syncs
   * everything.
   */
  listen(changes: Changes): void {
    this.changes = changes;
  }

  start(syncMs: number): void {
    this.refresher = new StoreRefresh({
      what: 'mappings, apps and tokens',
      channels: [VERSIONS_CHANNEL, TOKENS_CHANNEL],
      changes: this.changes,
      pollMs: syncMs,
      logger: this.logger,
      reload: () => this.syncOnce(),
      apply: (channel, payload) => {
        if (channel !== TOKENS_CHANNEL) return false;
        const revoked = (payload as { revoked?: unknown } | undefined)?.revoked;
        if (!Array.isArray(revoked)) return false;
        this.tokens.forgetRevoked(revoked.filter((h): h is string => typeof h === 'string'));
        return true;
      },
    });
    this.refresher.start();
  }

  stop(): void {
    this.refresher?.stop();
    this.refresher = null;
  }

  private async syncOnce(): Promise<void> {
    const moved = await this.versions.changed();
    if (moved.includes('mappings')) await this.mappings.load();
    if (moved.includes('apps')) await this.apps.load();
    await this.tokens.sync();
  }
}

import type { Changes, Logger } from 'vela/plugin';
import { TOKENS_CHANNEL, type TokenStore } from './oauth/token-store.js';
import type { AppStore } from './store/app-store.js';
import { type ChangeVersions, VERSIONS_CHANNEL } from './store/change-versions.js';
import type { MappingStore } from './store/mapping-store.js';

/**
 * Keeps this process's in-memory mappings, apps and tokens in step with writes made by other
 * processes sharing the database: a cheap version check (one small SELECT) plus the tokens changed
 * since the last look, every `syncMs`, and at once when another process announces a change on the
 * runtime's `changes` feed (PostgreSQL LISTEN/NOTIFY). Writes made here update memory at once without it.
 */
export class StateSync {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;

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

  start(syncMs: number): void {
    if (syncMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), syncMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
  }

  private readonly unsubscribes: Array<() => void> = [];

  /**
   * Follow the other processes' announcements: a bump of mappings or apps runs a sync at once; a revocation
   * takes its hashes out of memory without a query; a feed that was cut and is back syncs everything.
   */
  listen(changes: Changes): void {
    this.unsubscribes.push(
      changes.subscribe(VERSIONS_CHANNEL, (_payload, info) => {
        if (!info.local) void this.tick();
      }),
      changes.subscribe(TOKENS_CHANNEL, (payload, info) => {
        if (info.local) return;
        const revoked = (payload as { revoked?: unknown } | undefined)?.revoked;
        if (Array.isArray(revoked)) this.tokens.forgetRevoked(revoked.filter((h): h is string => typeof h === 'string'));
        else void this.tick();
      }),
    );
  }

  /** One sync; a call while one runs makes it run once more after (so no announcement is missed). */
  async tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        const moved = await this.versions.changed();
        if (moved.includes('mappings')) await this.mappings.load();
        if (moved.includes('apps')) await this.apps.load();
        await this.tokens.sync();
      } while (this.again);
    } catch (error) {
      this.logger.warn({ err: error }, 'refreshing mappings, apps and tokens from the store failed');
    } finally {
      this.running = false;
    }
  }
}

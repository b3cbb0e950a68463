import type { Logger } from 'vela/plugin';
import type { TokenStore } from './oauth/token-store.js';
import type { AppStore } from './store/app-store.js';
import type { ChangeVersions } from './store/change-versions.js';
import type { MappingStore } from './store/mapping-store.js';

/**
 * Keeps this process's in-memory mappings, apps and tokens in step with writes made by other
 * processes sharing the database: a cheap version check (one small SELECT) plus the tokens changed
 * since the last look, every `syncMs`. Writes made here update memory at once without it.
 */
export class StateSync {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

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
  }

  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const moved = await this.versions.changed();
      if (moved.includes('mappings')) await this.mappings.load();
      if (moved.includes('apps')) await this.apps.load();
      await this.tokens.sync();
    } catch (error) {
      this.logger.warn({ err: error }, 'refreshing mappings, apps and tokens from the store failed');
    } finally {
      this.running = false;
    }
  }
}

import type { ChangeInfo, Changes } from '../changes/change-feed.js';
import type { Logger } from '../logger.js';
import { RateLimitedLog } from '../rate-limited-log.js';

export interface StoreRefreshOptions {
  /** What is refreshed, for the log lines ("LLM instances and site settings"). */
  what: string;
  /** Re-read what the store holds in memory from the database. */
  reload: () => Promise<void>;
  /** The `changes` service; without it only the poll refreshes. */
  changes?: Changes;
  /** The channels (`<plugin>.<name>`) writes are announced on; the first is where `announce` publishes by default. */
  channels: readonly string[];
  /** The poll, the safety net for notices lost while the feed was cut; 0 or less: none. */
  pollMs: number;
  logger: Logger;
  /**
   * A notice from another process whose payload carries the change itself (revoked token hashes): apply it
   * and return true; false (or no `apply`) reloads.
   */
  apply?: (channel: string, payload: unknown) => boolean;
}

/** A failure of the refresh is logged once, then summed up every ten minutes while it lasts. */
const FAILURE_LOG = { lines: 1, intervalMs: 10 * 60_000 };

/**
 * Keeps a store's in-memory copy in step with what other processes sharing the database write: a write is
 * announced on the change feed after it committed (`announce`), every other process reloads at once; a feed
 * that was cut and is back (`resync`) reloads everything; and a poll every `pollMs` picks up whatever a lost
 * notice missed. Reloads never overlap: a notice during one runs one more after it. A failing reload is
 * logged once (not per tick) and its recovery once; the timer is unref'd and ends with `stop`.
 */
export class StoreRefresh {
  private timer: NodeJS.Timeout | null = null;
  private readonly unsubscribes: Array<() => void> = [];
  private running: Promise<boolean> | null = null;
  private again = false;
  private stopped = false;
  private failing = false;
  private readonly failures: RateLimitedLog;

  constructor(private readonly options: StoreRefreshOptions) {
    this.failures = new RateLimitedLog(options.logger, FAILURE_LOG);
  }

  /** Follow the channels and start the poll (once: a second call does nothing). */
  start(): void {
    if (this.timer || this.unsubscribes.length > 0) return;
    this.stopped = false;
    const { changes, channels, pollMs } = this.options;
    if (changes)
      for (const channel of channels)
        this.unsubscribes.push(changes.subscribe(channel, (payload, info) => this.onNotice(channel, payload, info)));
    if (pollMs > 0) {
      this.timer = setInterval(() => void this.refresh(), pollMs);
      this.timer.unref();
    }
  }

  /** Stop following and polling; a reload in flight finishes, its failure unlogged (the stop closes connections). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.failures.flush();
  }

  /**
   * Tell the other processes a write committed (the payload, as JSON, under 7,000 bytes). Never rejects:
   * false when the notice could not be sent; their polls pick the change up.
   */
  async announce(payload?: unknown, channel: string = this.options.channels[0]!): Promise<boolean> {
    if (!this.options.changes) return false;
    try {
      return await this.options.changes.publish(channel, payload);
    } catch (error) {
      this.options.logger.warn({ err: error, channel }, `announcing a change of ${this.options.what} failed`);
      return false;
    }
  }

  /** Reload now (or once more after the reload running). Never rejects: false when the reload failed. */
  refresh(): Promise<boolean> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async loop(): Promise<boolean> {
    let ok = true;
    do {
      this.again = false;
      ok = await this.once();
    } while (this.again && !this.stopped);
    return ok;
  }

  private async once(): Promise<boolean> {
    try {
      await this.options.reload();
    } catch (error) {
      if (this.stopped) return false;
      this.failing = true;
      this.failures.warn(
        'reload',
        { err: error, what: this.options.what },
        `refreshing ${this.options.what} from the database failed; retrying at each notice and poll`,
      );
      return false;
    }
    if (this.failing) {
      this.failing = false;
      this.failures.flush();
      this.options.logger.info(
        { what: this.options.what },
        `refreshing ${this.options.what} from the database works again`,
      );
    }
    return true;
  }

  private onNotice(channel: string, payload: unknown, info: ChangeInfo): void {
    if (this.stopped || info.local) return;
    if (!info.resync && this.options.apply?.(channel, payload)) return;
    void this.refresh();
  }
}

import type { Logger } from 'vela/plugin';

/** One search as the request path hands it over: nothing computed, nothing copied but these members. */
export interface SearchRecord {
  siteId: string;
  locale: string;
  term: string;
  userId: string | null;
  numFound: number;
  /** Epoch milliseconds. */
  at: number;
}

export interface RecorderOptions {
  /** How often the queue is written (ms). */
  flushMs: number;
  /** Most records waiting; past it a record is dropped and counted. */
  maxQueue: number;
  /** Records per INSERT. */
  batchSize: number;
}

export interface RecorderStats {
  /** Waiting to be written, in this process. */
  queued: number;
  /** Written since the start. */
  written: number;
  /** Dropped because the queue was full (the database is slower than the searches). */
  dropped: number;
  /** Lost because their write failed. */
  failed: number;
}

/**
 * Search metrics off the request path: `record` only appends to an in-memory queue (bounded: when it is
 * full the record is dropped and counted, so a slow database never slows a search or grows memory); a
 * timer writes the queue in batches. `flush` writes what is queued now, for readers that want what was
 * just searched, and for the stop.
 */
export class MetricsRecorder {
  private queue: SearchRecord[] = [];
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly counts = { written: 0, dropped: 0, failed: 0 };
  private droppedLogged = 0;

  constructor(
    private readonly write: (records: SearchRecord[]) => Promise<void>,
    private readonly options: RecorderOptions,
    private readonly logger: Logger,
  ) {}

  record(record: SearchRecord): void {
    if (this.queue.length >= this.options.maxQueue) {
      this.counts.dropped += 1;
      return;
    }
    this.queue.push(record);
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.queue.length > 0 || this.counts.dropped !== this.droppedLogged) void this.flush();
    }, this.options.flushMs);
    this.timer.unref();
  }

  /** Write every record queued before this call (one writer at a time; never rejects). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Forget queued records of a deleted site. */
  forgetSite(siteId: string): void {
    this.queue = this.queue.filter((r) => r.siteId !== siteId);
  }

  stats(): RecorderStats {
    return { queued: this.queue.length, ...this.counts };
  }

  private async drain(): Promise<void> {
    if (this.counts.dropped !== this.droppedLogged) {
      this.logger.warn(
        { dropped: this.counts.dropped - this.droppedLogged, maxQueue: this.options.maxQueue },
        'search metrics dropped: the queue was full (the database writes slower than searches arrive)',
      );
      this.droppedLogged = this.counts.dropped;
    }
    const taken = this.queue;
    if (taken.length === 0) return;
    this.queue = [];
    for (let from = 0; from < taken.length; from += this.options.batchSize) {
      const batch = taken.slice(from, from + this.options.batchSize);
      try {
        await this.write(batch);
        this.counts.written += batch.length;
      } catch (error) {
        this.counts.failed += batch.length;
        this.logger.warn(
          { err: error, records: batch.length },
          'writing search metrics failed; these records are lost',
        );
      }
    }
  }
}

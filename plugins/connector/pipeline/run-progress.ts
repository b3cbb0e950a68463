import type { Logger } from 'vela/plugin';

/** How often a run says how far it got: often enough to see it move, rarely enough to read the log. */
export const PROGRESS_EVERY_MS = 5000;

/**
 * The progress lines of one run: documents done, the rate since the run began, and of how many when
 * that is known (the documents the source had at its last run, or the ids asked for). A timer rather than
 * a count, so a run waiting on a slow source still says where it stands.
 */
export class RunProgress {
  private readonly began = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly labels: { source: string; run: string },
    private readonly expected: number | null,
    private readonly done: () => number,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.report(), this.everyMs);
    // A progress line is never a reason to keep the process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  report(): void {
    const done = this.done();
    const seconds = (performance.now() - this.began) / 1000;
    const perSecond = seconds > 0 ? Math.round(done / seconds) : 0;
    const of = this.expected && this.expected > 0 ? this.expected : null;
    const total = of ? ` of about ${of}` : '';
    const percent = of ? Math.min(100, Math.round((done / of) * 100)) : null;
    this.logger.info(
      { ...this.labels, done, of, perSecond, ...(percent === null ? {} : { percent }) },
      `indexing ${this.labels.source}: ${done}${total} documents, ${perSecond} per second`,
    );
  }
}

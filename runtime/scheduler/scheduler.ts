import cron, { type ScheduledTask } from 'node-cron';
import { bootErrors } from '../errors.js';
import type { Logger } from '../logger.js';

export interface JobOptions {
  timezone?: string;
}

export interface JobStatus {
  name: string;
  expression: string;
  running: boolean;
  runs: number;
  skippedOverlaps: number;
  lastStartedAt: string | null;
  lastError: string | null;
  nextRunAt: string | null;
}

interface Job {
  status: JobStatus;
  task: ScheduledTask | null;
  inFlight: Promise<void> | null;
  fn: () => Promise<unknown> | unknown;
  options: JobOptions;
}

/**
 * node-cron jobs of every plugin. A job never overlaps itself: a tick that comes while the last
 * run is still going is skipped and counted. Jobs are declared at register and start with the
 * runtime; stop() ends the timers and waits for runs in flight.
 */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private started = false;

  constructor(private readonly logger: Logger) {}

  add(name: string, expression: string, fn: () => Promise<unknown> | unknown, options: JobOptions = {}): void {
    if (!cron.validate(expression)) throw bootErrors.cronInvalid(name, expression);
    if (this.jobs.has(name)) this.remove(name);
    const job: Job = {
      status: {
        name,
        expression,
        running: false,
        runs: 0,
        skippedOverlaps: 0,
        lastStartedAt: null,
        lastError: null,
        nextRunAt: null,
      },
      task: null,
      inFlight: null,
      fn,
      options,
    };
    this.jobs.set(name, job);
    if (this.started) this.schedule(job);
  }

  remove(name: string): void {
    const job = this.jobs.get(name);
    if (!job) return;
    void job.task?.destroy();
    this.jobs.delete(name);
  }

  /** Run a job now (as a tick would); resolves when the run ends, or at once if it is already running. */
  async runNow(name: string): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job) return false;
    return this.tick(job);
  }

  start(): void {
    this.started = true;
    for (const job of this.jobs.values()) this.schedule(job);
  }

  list(): JobStatus[] {
    return [...this.jobs.values()].map((job) => ({
      ...job.status,
      nextRunAt: job.task?.getNextRun()?.toISOString() ?? null,
    }));
  }

  async stop(timeoutMs: number): Promise<void> {
    this.started = false;
    for (const job of this.jobs.values()) {
      await job.task?.destroy();
      job.task = null;
    }
    const inFlight = [...this.jobs.values()].map((j) => j.inFlight).filter(Boolean) as Promise<void>[];
    if (inFlight.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(inFlight),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  private schedule(job: Job): void {
    job.task = cron.schedule(job.status.expression, () => this.tick(job), {
      name: job.status.name,
      timezone: job.options.timezone,
      noOverlap: false,
    });
  }

  private async tick(job: Job): Promise<boolean> {
    if (job.inFlight) {
      job.status.skippedOverlaps += 1;
      this.logger.warn({ job: job.status.name }, 'scheduled job still running; this run is skipped');
      return false;
    }
    job.status.running = true;
    job.status.runs += 1;
    job.status.lastStartedAt = new Date().toISOString();
    job.inFlight = (async () => {
      try {
        await job.fn();
        job.status.lastError = null;
      } catch (error) {
        job.status.lastError = (error as Error).message;
        this.logger.error({ job: job.status.name, err: error }, 'scheduled job failed');
      } finally {
        job.status.running = false;
        job.inFlight = null;
      }
    })();
    await job.inFlight;
    return true;
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import type { RunOperation, RunStats, RunTrigger } from '../monitoring/run-store.js';
import type { Source, SourceStore } from '../sources/source-store.js';
import { IndexRun, type RunDependencies } from './index-run.js';
import type { RunLeases } from './run-leases.js';

export interface RunTicket {
  runId: string;
  /** Settles when the run has ended (never rejects: the outcome is in the statistics). */
  done: Promise<RunStats>;
}

const LEASE_POLL_MS = 500;

/**
 * Starts runs in the background and keeps them in order: the runs of one source go one after the
 * other (so two never write the same records at once), in this process by a promise chain and across
 * processes sharing the database by a lease; a second full run of a source that has one running or
 * waiting is refused; stop() interrupts every run and waits for it.
 */
export class RunCoordinator {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly fullRuns = new Set<string>();
  /** Runs of each source queued or running here, until each says it has ended. */
  private readonly active = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private controller = new AbortController();
  private stopped = false;

  constructor(
    private readonly sources: SourceStore,
    private readonly deps: () => RunDependencies,
    private readonly leases: RunLeases,
    private readonly logger: Logger,
  ) {}

  /** Whether a full run of the source is running or waiting in this process. */
  isRunning(source: string): boolean {
    return this.fullRuns.has(source);
  }

  /** Whether any run of the source (full or by ids) is running or waiting in this process. */
  isBusy(source: string): boolean {
    return this.active.has(source);
  }

  /** Whether a process sharing the database runs the source now. */
  runsElsewhere(source: string): Promise<boolean> {
    return this.leases.heldElsewhere(source);
  }

  /**
   * Queue a run; resolves as soon as it is queued. Rejects with 404 for an unknown source, 409 for a
   * second full run (here or in another process), 503 when there is no search service to send to.
   */
  async trigger(name: string, operation: RunOperation, trigger: RunTrigger, ids?: string[]): Promise<RunTicket> {
    const source = this.sources.get(name);
    const full = operation === 'INDEX_ALL' || operation === 'REINDEX_ALL';
    if (full && this.fullRuns.has(name)) throw connectorErrors.sourceRunning(name);
    if (this.stopped) throw connectorErrors.stopping();
    const deps = this.deps();
    if (full) {
      // Marked before the database is asked, so two triggers at once in this process cannot both pass.
      this.fullRuns.add(name);
      try {
        if (await this.leases.heldElsewhere(name)) throw connectorErrors.sourceRunningElsewhere(name);
      } catch (error) {
        this.fullRuns.delete(name);
        throw error;
      }
    }
    const run = new IndexRun({ source, operation, trigger, ids }, deps, this.controller.signal);
    const previous = this.chains.get(name) ?? Promise.resolve();
    this.active.set(name, (this.active.get(name) ?? 0) + 1);
    // Called as the run ends (before its statistics say so) and again once it has settled: only the first counts,
    // so a full run triggered in between keeps its mark.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (full) this.fullRuns.delete(name);
      const left = (this.active.get(name) ?? 1) - 1;
      if (left > 0) this.active.set(name, left);
      else this.active.delete(name);
    };
    const done = previous.then(() => this.execute(run, source, release)).finally(release);
    const tail = done.catch(() => undefined);
    this.chains.set(name, tail);
    void tail.then(() => {
      if (this.chains.get(name) === tail) this.chains.delete(name);
    });
    this.inFlight.add(tail);
    void tail.finally(() => this.inFlight.delete(tail));
    return { runId: run.id, done };
  }

  /** A scheduled tick: skipped (and logged) while a full run of the source goes, here or elsewhere. */
  async scheduled(name: string): Promise<void> {
    try {
      await (await this.trigger(name, 'INDEX_ALL', 'schedule')).done;
    } catch (error) {
      this.logger.info({ source: name, reason: (error as Error).message }, 'scheduled run skipped');
    }
  }

  /** Interrupt every run (they end INTERRUPTED, deleting nothing) and wait for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.controller.abort(new Error('the runtime is stopping'));
    await Promise.all([...this.inFlight]);
  }

  private async execute(run: IndexRun, source: Source, release: () => void): Promise<RunStats> {
    let renewal: NodeJS.Timeout | undefined;
    try {
      return await run.execute({
        beforeRun: async () => {
          await this.waitForLease(source.name, run.id);
          renewal = setInterval(() => {
            this.leases
              .renew(source.name, run.id)
              .catch((error: Error) =>
                this.logger.warn({ source: source.name, err: error }, 'renewing the run lease failed'),
              );
          }, this.leases.ttlMs / 3);
          renewal.unref();
        },
        // The lease goes with the in-process mark, before the statistics say the run ended: a client in another
        // process that sees them may start the next run at once.
        beforeFinish: async () => {
          release();
          clearInterval(renewal);
          await this.releaseLease(source.name, run.id);
        },
      });
    } catch (error) {
      // Only the bookkeeping itself (the database) can fail here; the run's own errors are in its stats.
      this.logger.error({ source: source.name, run: run.id, err: error }, 'indexing run could not be recorded');
      throw error;
    } finally {
      clearInterval(renewal);
      await this.releaseLease(source.name, run.id);
    }
  }

  private releaseLease(source: string, runId: string): Promise<void> {
    return this.leases
      .release(source, runId)
      .catch((error: Error) => this.logger.warn({ source, err: error }, 'releasing the run lease failed'));
  }

  /** Another process may be running the source (a run by ids, or a full run that raced this one): wait. */
  private async waitForLease(source: string, runId: string): Promise<void> {
    const signal = this.controller.signal;
    while (!(await this.leases.acquire(source, runId))) {
      await sleep(LEASE_POLL_MS, undefined, { signal });
    }
  }
}

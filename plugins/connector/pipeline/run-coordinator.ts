import type { Logger } from '../../../runtime/index.js';
import { connectorErrors } from '../errors.js';
import type { RunOperation, RunStats, RunTrigger } from '../monitoring/run-store.js';
import type { Source, SourceStore } from '../sources/source-store.js';
import { IndexRun, type RunDependencies } from './index-run.js';

export interface RunTicket {
  runId: string;
  /** Settles when the run has ended (never rejects: the outcome is in the statistics). */
  done: Promise<RunStats>;
}

/**
 * Starts runs in the background and keeps them in order: the runs of one source go one after the
 * other (so two never write the same records at once), a second full run of a source that has one
 * running or waiting is refused, and stop() interrupts every run and waits for it.
 */
export class RunCoordinator {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly fullRuns = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private controller = new AbortController();
  private stopped = false;

  constructor(private readonly sources: SourceStore, private readonly deps: () => RunDependencies, private readonly logger: Logger) {}

  /** Whether a full run of the source is running or waiting. */
  isRunning(source: string): boolean {
    return this.fullRuns.has(source);
  }

  /**
   * Queue a run and return at once. Throws 404 for an unknown source, 409 for a second full run,
   * 503 when there is no search service to send to.
   */
  trigger(name: string, operation: RunOperation, trigger: RunTrigger, ids?: string[]): RunTicket {
    const source = this.sources.get(name);
    const full = operation === 'INDEX_ALL' || operation === 'REINDEX_ALL';
    if (full && this.fullRuns.has(name)) throw connectorErrors.sourceRunning(name);
    if (this.stopped) throw connectorErrors.stopping();
    const deps = this.deps();
    const run = new IndexRun({ source, operation, trigger, ids }, deps, this.controller.signal);
    if (full) this.fullRuns.add(name);
    const previous = this.chains.get(name) ?? Promise.resolve();
    const release = () => {
      if (full) this.fullRuns.delete(name);
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

  /** A scheduled tick: skipped (and logged) while a full run of the source is running or waiting. */
  async scheduled(name: string): Promise<void> {
    if (this.fullRuns.has(name)) {
      this.logger.info({ source: name }, 'scheduled run skipped: a full run of this source is still going');
      return;
    }
    await this.trigger(name, 'INDEX_ALL', 'schedule').done;
  }

  /** Interrupt every run (they end INTERRUPTED, deleting nothing) and wait for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.controller.abort(new Error('the runtime is stopping'));
    await Promise.all([...this.inFlight]);
  }

  private async execute(run: IndexRun, source: Source, release: () => void): Promise<RunStats> {
    try {
      return await run.execute(release);
    } catch (error) {
      // Only the bookkeeping itself (the database) can fail here; the run's own errors are in its stats.
      this.logger.error({ source: source.name, run: run.id, err: error }, 'indexing run could not be recorded');
      throw error;
    }
  }
}

import cluster, { type Worker } from 'node:cluster';
import { isClusterChangeMessage } from '../changes/change-feed.js';
import type { Logger } from '../logger.js';
import type { ClusterPlan, WorkerSpec } from './cluster-plan.js';

/** The environment variable that carries a worker's spec (JSON). */
export const WORKER_ENV = 'VELA_CLUSTER_WORKER';
/** Worker → primary: the runtime is up and serving. */
export const READY = 'vela:ready';
/** Primary → worker: stop accepting, finish what is in flight, exit. */
export const SHUTDOWN = 'vela:shutdown';
const RESTART_BACKOFF_MAX_MS = 10_000;
/** npm and the terminal may both deliver one Ctrl-C: only a repeat after this pause forces the exit. */
const REPEAT_SIGNAL_PAUSE_MS = 1500;

class Stopping extends Error {
  constructor() {
    super('the workers are stopping');
  }
}

/**
 * The primary's part: forks the workers, replaces one that dies, restarts them one by one on SIGHUP and
 * stops them all on SIGINT/SIGTERM. Every forked process is tracked from the fork to its exit, whether it
 * is starting, serving or retiring, so a stop never leaves one behind (one that becomes ready after the
 * stop began is retired at once), and nothing is forked once the stop began.
 */
export class Supervisor {
  /** The worker serving each slot. */
  private readonly serving = new Map<WorkerSpec, Worker>();
  /** Every forked worker that has not exited yet. */
  private readonly alive = new Set<Worker>();
  private readonly restarts = new Map<WorkerSpec, number>();
  private stopping = false;
  private stopSignalAt = 0;
  private forced = false;
  private rolling = false;
  private exit!: (code: number) => void;
  private readonly exited = new Promise<number>((resolve) => {
    this.exit = resolve;
  });

  constructor(
    private readonly plan: ClusterPlan,
    private readonly logger: Logger,
  ) {}

  /**
   * Start every worker; resolves with the exit code once they have all stopped. `ready` runs once every slot
   * serves, `failed` when a worker could not start (before the others are stopped).
   */
  async run(on: { ready?(): void; failed?(): Promise<void> } = {}): Promise<number> {
    cluster.on('message', (from, message) => this.relay(from, message));
    process.on('SIGINT', this.onStopSignal);
    process.on('SIGTERM', this.onStopSignal);
    process.on('SIGHUP', () => {
      this.logger.info('SIGHUP: restarting the workers one by one');
      void this.rollingRestart();
    });
    try {
      await this.startAll();
    } catch (error) {
      if (!(error instanceof Stopping) && !this.stopping) {
        this.logger.error({ err: error }, 'a worker failed to start');
        await on.failed?.();
        this.stopAll();
        await this.exited;
        return 1;
      }
    }
    if (this.stopping) return this.exited;
    on.ready?.();
    // The line a script waits for: every service's URL, once every slot serves.
    this.logger.info(
      { workers: this.plan.specs.map((s) => `${s.group}/${s.slot}`), urls: this.plan.services },
      'all workers ready',
    );
    return this.exited;
  }

  /** Each group's owner once the groups it calls are up (the owner also seeds), then the other slots together. */
  private async startAll(): Promise<void> {
    const owners = new Map<string, Promise<unknown>>();
    for (const spec of this.plan.specs.filter((s) => s.slot === 0)) {
      const first = (this.plan.after.get(spec.group) ?? [])
        .map((group) => owners.get(group))
        .filter((p) => p !== undefined);
      owners.set(
        spec.group,
        Promise.all(first).then(() => this.spawn(spec)),
      );
    }
    await Promise.all(owners.values());
    await Promise.all(this.plan.specs.filter((s) => s.slot > 0).map((s) => this.spawn(s)));
  }

  /** Fork a worker for the slot and resolve once its runtime is ready (reject if it exits first, or the stop began). */
  private spawn(spec: WorkerSpec): Promise<Worker> {
    if (this.stopping) return Promise.reject(new Stopping());
    const worker = cluster.fork({ [WORKER_ENV]: JSON.stringify(spec) });
    this.alive.add(worker);
    const name = `${spec.group}/${spec.slot}`;
    // A message to a worker whose channel just closed fails here, not as an uncaught 'error'.
    worker.on('error', (error) => this.logger.debug({ err: error, worker: name }, 'worker channel error'));
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message) => {
        if (message !== READY || ready) return;
        ready = true;
        if (this.stopping) {
          // Ready after the stop began: it must not outlive the primary.
          void this.retire(worker);
          reject(new Stopping());
          return;
        }
        const previous = this.serving.get(spec);
        this.serving.set(spec, worker);
        this.restarts.delete(spec);
        if (previous && previous !== worker) void this.retire(previous);
        resolve(worker);
      });
      worker.on('exit', (code, signal) => {
        this.alive.delete(worker);
        const served = this.serving.get(spec) === worker;
        if (served) this.serving.delete(spec);
        if (!ready)
          reject(
            this.stopping ? new Stopping() : new Error(`worker ${name} exited (${code ?? signal}) before it was ready`),
          );
        if (this.stopping) {
          if (this.alive.size === 0) this.exit(this.forced ? 1 : 0);
          return;
        }
        if (served) {
          this.logger.error({ worker: name, code, signal }, 'a worker exited; replacing it');
          this.replace(spec);
        }
      });
    });
  }

  /** A slot whose worker died: a new one, after a pause that grows while replacements keep failing. */
  private replace(spec: WorkerSpec): void {
    const attempt = (this.restarts.get(spec) ?? 0) + 1;
    this.restarts.set(spec, attempt);
    const delay = Math.min(RESTART_BACKOFF_MAX_MS, 250 * 2 ** (attempt - 1));
    setTimeout(() => {
      if (this.stopping) return;
      this.spawn(spec).catch((error: Error) => {
        if (error instanceof Stopping) return;
        this.logger.error(
          { err: error, worker: `${spec.group}/${spec.slot}`, retryInMs: delay },
          'replacing a worker failed',
        );
        this.replace(spec);
      });
    }, delay);
  }

  /**
   * Ask a worker to stop: it closes its listeners (the primary sends it no more connections), lets requests in flight
   * finish, then exits.
   */
  private retire(worker: Worker): Promise<void> {
    if (worker.isDead()) return Promise.resolve();
    const gone = this.gone(worker);
    if (worker.isConnected()) worker.send(SHUTDOWN);
    else worker.process.kill('SIGTERM');
    return gone;
  }

  private gone(worker: Worker): Promise<void> {
    return worker.isDead() ? Promise.resolve() : new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  /** SIGHUP: one slot at a time, the replacement ready before the old worker stops; abandoned when the stop begins. */
  private async rollingRestart(): Promise<void> {
    if (this.rolling || this.stopping) return;
    this.rolling = true;
    try {
      for (const spec of this.plan.specs) {
        if (this.stopping) throw new Stopping();
        const old = this.serving.get(spec);
        // spawn() retires the old worker once the new one is ready; the next slot waits until it is gone.
        await this.spawn(spec);
        if (old) await this.gone(old);
      }
      this.logger.info('every worker restarted');
    } catch (error) {
      if (error instanceof Stopping || this.stopping)
        this.logger.info('the rolling restart stopped: the workers are stopping');
      else
        this.logger.error(
          { err: error },
          'the rolling restart stopped: a new worker failed to start (the old one keeps serving)',
        );
    } finally {
      this.rolling = false;
    }
  }

  private readonly onStopSignal = (signal: NodeJS.Signals): void => {
    if (!this.stopping) {
      this.logger.info({ signal }, 'stopping every worker');
      this.stopSignalAt = Date.now();
      this.stopAll();
      return;
    }
    if (Date.now() - this.stopSignalAt < REPEAT_SIGNAL_PAUSE_MS || this.alive.size === 0) return;
    this.logger.warn({ signal, workers: this.alive.size }, 'second signal: killing the workers without waiting');
    this.forced = true;
    for (const worker of this.alive) worker.process.kill('SIGKILL');
  };

  /**
   * Serving workers are asked to shut down; the others (starting, or being replaced) get SIGTERM: a runtime
   * still starting stops once its start settled, one not that far yet simply ends.
   */
  private stopAll(): void {
    if (this.stopping) return;
    this.stopping = true;
    if (this.alive.size === 0) {
      this.exit(0);
      return;
    }
    const serving = new Set(this.serving.values());
    for (const worker of this.alive) {
      if (serving.has(worker)) void this.retire(worker);
      else worker.process.kill('SIGTERM');
    }
  }

  /**
   * Change notices (the `changes` service's cluster mode, for SQLite): to every other worker, starting ones included.
   */
  private relay(from: Worker, message: unknown): void {
    if (!isClusterChangeMessage(message)) return;
    for (const worker of this.alive) if (worker !== from && worker.isConnected()) worker.send(message);
  }
}

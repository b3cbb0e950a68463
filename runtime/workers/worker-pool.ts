import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from '../logger.js';

export interface WorkerPoolOptions {
  minThreads: number;
  maxThreads: number;
  idleTimeoutMs: number;
}

/** A task a plugin registered: a module file and the export to call with a structured-clone payload. */
export interface TaskRunner<In, Out> {
  (payload: In, options?: { signal?: AbortSignal; transferList?: Transferable[] }): Promise<Out>;
  readonly file: string;
}

const taskHost = fileURLToPath(new URL('./task-host.mjs', import.meta.url));

/**
 * The piscina pool that does CPU work off the event loop. Threads start on the first task and
 * idle out, so a runtime that never indexes or OCRs keeps no threads.
 */
export class WorkerPool {
  private pool: Piscina | null = null;
  private closed = false;

  constructor(
    private readonly options: WorkerPoolOptions,
    private readonly logger: Logger,
  ) {}

  /** Name a task once (at register); call the returned function as often as needed. */
  task<In, Out>(file: string | URL, exportName = 'default'): TaskRunner<In, Out> {
    const path = file instanceof URL ? fileURLToPath(file) : file;
    const run = (payload: In, opts: { signal?: AbortSignal; transferList?: Transferable[] } = {}) => this.run<Out>(path, exportName, payload, opts);
    return Object.assign(run, { file: path }) as TaskRunner<In, Out>;
  }

  async run<Out>(file: string, exportName: string, payload: unknown, opts: { signal?: AbortSignal; transferList?: Transferable[] } = {}): Promise<Out> {
    if (this.closed) throw new Error('the worker pool is closed (the runtime is stopping)');
    return (await this.ensurePool().run({ file, exportName, payload }, { signal: opts.signal, transferList: opts.transferList as never })) as Out;
  }

  /** `maxThreads` is the pool's size, the threads it grows to under load (known before its first task). */
  stats(): { threads: number; maxThreads: number; queueSize: number; completed: number; utilization: number } {
    const maxThreads = this.maxThreads();
    if (!this.pool) return { threads: 0, maxThreads, queueSize: 0, completed: 0, utilization: 0 };
    return {
      threads: this.pool.threads.length,
      maxThreads,
      queueSize: this.pool.queueSize,
      completed: this.pool.completed,
      utilization: this.pool.utilization,
    };
  }

  /** Let queued tasks finish, then end every thread. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.close();
  }

  private ensurePool(): Piscina {
    if (!this.pool) {
      const maxThreads = this.maxThreads();
      this.pool = new Piscina({
        filename: taskHost,
        minThreads: Math.min(this.options.minThreads, maxThreads),
        maxThreads,
        idleTimeout: this.options.idleTimeoutMs,
      });
      this.logger.debug({ maxThreads }, 'worker pool started');
    }
    return this.pool;
  }

  private maxThreads(): number {
    return Math.max(1, Math.min(this.options.maxThreads, os.availableParallelism()));
  }
}

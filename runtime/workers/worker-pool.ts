import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from '../logger.js';

export interface WorkerPoolOptions {
  minThreads: number;
  maxThreads: number;
  idleTimeoutMs: number;
  /** A thread holding more than this after a task (heap and external memory, MiB) is replaced; 0 never. */
  recycleAboveMb?: number;
}

/** Slots of the retiring flags a thread sets (by thread id, modulo): more than the threads a pool ever holds. */
const RETIRING_SLOTS = 256;

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
  /** Thread ids of the threads that are ending (task-host.mjs sets them), shared with every thread. */
  private readonly retiring = new Int32Array(new SharedArrayBuffer(RETIRING_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  private recycled = 0;
  private watch: NodeJS.Timeout | null = null;

  constructor(
    private readonly options: WorkerPoolOptions,
    private readonly logger: Logger,
  ) {}

  /** Name a task once (at register); call the returned function as often as needed. */
  task<In, Out>(file: string | URL, exportName = 'default'): TaskRunner<In, Out> {
    const path = file instanceof URL ? fileURLToPath(file) : file;
    const run = (payload: In, opts: { signal?: AbortSignal; transferList?: Transferable[] } = {}) =>
      this.run<Out>(path, exportName, payload, opts);
    return Object.assign(run, { file: path }) as TaskRunner<In, Out>;
  }

  async run<Out>(
    file: string,
    exportName: string,
    payload: unknown,
    opts: { signal?: AbortSignal; transferList?: Transferable[] } = {},
  ): Promise<Out> {
    if (this.closed) throw new Error('the worker pool is closed (the runtime is stopping)');
    try {
      return (await this.ensurePool().run(
        { file, exportName, payload },
        { signal: opts.signal, transferList: opts.transferList as never },
      )) as Out;
    } finally {
      if (!this.watch && this.retiring.some((id) => id !== 0))
        this.watch = setInterval(() => this.replaceRetired(), 20);
    }
  }

  /**
   * Counts the threads that ended after a large task (a thread's id reads -1 once it has ended) and, when
   * none is left ending, starts a thread for the tasks waiting: piscina starts one for its queue only when a
   * task arrives or another thread frees up, so with one thread (or none kept) they would wait for ever. The
   * interval keeps the process alive meanwhile (piscina's idle threads do not).
   */
  private replaceRetired(): void {
    const pool = this.pool;
    const alive = new Set(pool?.threads.map((thread) => thread.threadId) ?? []);
    let ending = 0;
    for (let slot = 0; slot < this.retiring.length; slot++) {
      const id = Atomics.load(this.retiring, slot);
      if (id === 0) continue;
      if (alive.has(id)) {
        ending += 1;
        continue;
      }
      Atomics.compareExchange(this.retiring, slot, id, 0);
      this.recycled += 1;
      this.logger.debug(
        { thread: id, recycleAboveMb: this.options.recycleAboveMb },
        'worker thread replaced after a large task',
      );
    }
    if (ending > 0) return;
    clearInterval(this.watch ?? undefined);
    this.watch = null;
    if (pool && !this.closed && pool.queueSize > 0)
      pool.run({ file: taskHost, exportName: 'nothing', payload: null }).catch(() => {});
  }

  /**
   * `maxThreads` is the pool's size, the threads it grows to under load (known before its first task);
   * `recycled` the threads replaced for holding more than `recycleAboveMb`.
   */
  stats(): {
    threads: number;
    maxThreads: number;
    queueSize: number;
    completed: number;
    utilization: number;
    recycled: number;
  } {
    const maxThreads = this.maxThreads();
    if (!this.pool)
      return { threads: 0, maxThreads, queueSize: 0, completed: 0, utilization: 0, recycled: this.recycled };
    return {
      threads: this.pool.threads.length,
      maxThreads,
      queueSize: this.pool.queueSize,
      completed: this.pool.completed,
      utilization: this.pool.utilization,
      recycled: this.recycled,
    };
  }

  /** Let queued tasks finish, then end every thread. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watch ?? undefined);
    this.watch = null;
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.close();
  }

  private ensurePool(): Piscina {
    if (!this.pool) {
      const maxThreads = this.maxThreads();
      const recycleAboveMb = this.options.recycleAboveMb ?? 0;
      const retiring = this.retiring;
      const pool = new Piscina({
        filename: taskHost,
        minThreads: Math.min(this.options.minThreads, maxThreads),
        maxThreads,
        idleTimeout: this.options.idleTimeoutMs,
        workerData: { retiring, recycleAboveBytes: recycleAboveMb * 1024 * 1024 },
        // A thread that ends after a large task does so from its event loop, which piscina's default (waiting
        // for the next task in Atomics.wait) would keep blocked; tasks arrive as messages instead.
        atomics: 'disabled',
        // piscina's least-busy choice (one task a thread), leaving out the threads that are ending.
        loadBalancer: (_task, workers) =>
          workers.find(
            (w) => w.currentUsage === 0 && !w.terminating && Atomics.load(retiring, w.id % retiring.length) !== w.id,
          ) ?? null,
      });
      this.pool = pool;
      this.logger.debug({ maxThreads }, 'worker pool started');
    }
    return this.pool;
  }

  private maxThreads(): number {
    return Math.max(1, Math.min(this.options.maxThreads, os.availableParallelism()));
  }
}

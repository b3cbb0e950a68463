import { col, type Database, nowIso, rowCodec, writeJson } from 'vela/plugin';

import type { RunCounts, RunOperation, RunStats, RunStatus, RunTrigger } from '../api.js';

export type { RunCounts, RunOperation, RunStats, RunStatus, RunTrigger };

/** A run as its row holds it; the rates are worked out when it is read. */
interface Run extends Pick<RunStats, 'id' | 'source' | 'provider' | 'operationType' | 'trigger' | 'status'> {
  startTime: string;
  endTime: string | null;
  counts: Partial<RunCounts>;
  error: string | null;
  notes: string[];
}

const runs = rowCodec<Run>('connector_runs', {
  id: 'id',
  source: 'source',
  provider: 'kind',
  operationType: 'operation',
  trigger: 'trigger',
  status: 'status',
  startTime: 'start_time',
  endTime: 'end_time',
  counts: col.json('counts'),
  error: 'error',
  notes: col.json('notes', []),
});
const TABLE = runs.table;

export const emptyCounts = (): RunCounts => ({
  documents: 0,
  indexed: 0,
  unchanged: 0,
  ignored: 0,
  deindexed: 0,
  errors: 0,
});

function statsOf(run: Run): RunStats {
  const counts = { ...emptyCounts(), ...run.counts };
  const durationMs = run.endTime ? Math.max(0, Date.parse(run.endTime) - Date.parse(run.startTime)) : null;
  const perSecond = durationMs
    ? Math.round((counts.documents / (durationMs / 1000)) * 10) / 10
    : durationMs === 0
      ? counts.documents
      : null;
  return {
    id: run.id,
    source: run.source,
    provider: run.provider,
    operationType: run.operationType,
    trigger: run.trigger,
    status: run.status,
    startTime: run.startTime,
    endTime: run.endTime,
    ...counts,
    documentCount: counts.documents,
    durationMs,
    documentsPerSecond: perSecond,
    documentsPerMinute: perSecond === null ? null : Math.round(perSecond * 60),
    error: run.error,
    notes: run.notes,
  };
}

/** One row per run: when, what, how many, how fast, and how it ended. */
export class RunStore {
  constructor(private readonly db: Database) {}

  async begin(run: {
    id: string;
    source: string;
    kind: string;
    operation: RunOperation;
    trigger: RunTrigger;
  }): Promise<string> {
    const start = nowIso();
    const { id, source, kind: provider, operation: operationType, trigger } = run;
    const started = { id, source, provider, operationType, trigger, startTime: start, counts: emptyCounts() };
    await this.db(TABLE).insert(runs.toColumns({ ...started, status: 'RUNNING' }));
    return start;
  }

  async finish(
    id: string,
    status: Exclude<RunStatus, 'RUNNING'>,
    counts: RunCounts,
    error: string | null,
    notes: readonly string[] = [],
  ): Promise<void> {
    await this.db(TABLE)
      .where({ id })
      // A run without notes leaves the column empty.
      .update({
        ...runs.toColumns({ status, endTime: nowIso(), counts, error }),
        notes: notes.length > 0 ? writeJson(notes) : null,
      });
  }

  /**
   * Runs a stopped or killed process left RUNNING (but not `stillRunning`, held by live processes); called at start.
   */
  async markInterrupted(stillRunning: ReadonlySet<string>): Promise<number> {
    const query = this.db(TABLE).where({ status: 'RUNNING' });
    if (stillRunning.size > 0) query.whereNotIn('id', [...stillRunning]);
    return query.update({ status: 'INTERRUPTED', end_time: nowIso(), error: 'the runtime stopped during the run' });
  }

  async list(source: string | undefined, limit = 50): Promise<RunStats[]> {
    const query = this.db(TABLE).select().orderBy('start_time', 'desc').limit(limit);
    if (source !== undefined) query.where({ source });
    return (await runs.all(query)).map(statsOf);
  }

  async get(id: string): Promise<RunStats | undefined> {
    const run = await runs.first(this.db(TABLE).where({ id }));
    return run && statsOf(run);
  }

  async removeSource(source: string): Promise<void> {
    await this.db(TABLE).where({ source }).delete();
  }
}

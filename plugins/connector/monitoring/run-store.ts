import { type Database, nowIso, readJson, writeJson } from 'vela/plugin';

import type { RunCounts, RunOperation, RunStats, RunStatus, RunTrigger } from '../api.js';

export type { RunCounts, RunOperation, RunStats, RunStatus, RunTrigger };

interface Row {
  id: string;
  source: string;
  kind: string;
  operation: RunOperation;
  trigger: RunTrigger;
  status: RunStatus;
  start_time: string;
  end_time: string | null;
  counts: unknown;
  error: string | null;
  notes: string | null;
}

const TABLE = 'connector_runs';

export const emptyCounts = (): RunCounts => ({
  documents: 0,
  indexed: 0,
  unchanged: 0,
  ignored: 0,
  deindexed: 0,
  errors: 0,
});

function fromRow(r: Row): RunStats {
  const counts = {
    ...emptyCounts(),
    ...readJson<Partial<RunCounts>>(r.counts, { table: TABLE, column: 'counts', row: r.id }),
  };
  const durationMs = r.end_time ? Math.max(0, Date.parse(r.end_time) - Date.parse(r.start_time)) : null;
  const perSecond = durationMs
    ? Math.round((counts.documents / (durationMs / 1000)) * 10) / 10
    : durationMs === 0
      ? counts.documents
      : null;
  return {
    id: r.id,
    source: r.source,
    provider: r.kind,
    operationType: r.operation,
    trigger: r.trigger,
    status: r.status,
    startTime: r.start_time,
    endTime: r.end_time,
    ...counts,
    documentCount: counts.documents,
    durationMs,
    documentsPerSecond: perSecond,
    documentsPerMinute: perSecond === null ? null : Math.round(perSecond * 60),
    error: r.error,
    notes: r.notes ? readJson<string[]>(r.notes, { table: TABLE, column: 'notes', row: r.id }) : [],
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
    await this.db(TABLE).insert({
      id: run.id,
      source: run.source,
      kind: run.kind,
      operation: run.operation,
      trigger: run.trigger,
      status: 'RUNNING',
      start_time: start,
      counts: writeJson(emptyCounts()),
    });
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
      .update({
        status,
        end_time: nowIso(),
        counts: writeJson(counts),
        error,
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
    const query = this.db<Row>(TABLE).select().orderBy('start_time', 'desc').limit(limit);
    if (source !== undefined) query.where({ source });
    return ((await query) as Row[]).map(fromRow);
  }

  async get(id: string): Promise<RunStats | undefined> {
    const row = (await this.db<Row>(TABLE).where({ id }).first()) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  async removeSource(source: string): Promise<void> {
    await this.db(TABLE).where({ source }).delete();
  }
}

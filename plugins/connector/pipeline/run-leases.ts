import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Database } from 'vela/plugin';

const TABLE = 'connector_run_leases';

interface LeaseRow {
  source: string;
  run_id: string;
  holder: string;
  expires_at: string;
}

/**
 * Which process runs which source, in the database: a lease per source, renewed while the run goes and
 * left to expire if the process dies, so processes sharing one database never run a source at once.
 */
export class RunLeases {
  /** This process: host and pid (so a restart on the same host can tell a dead holder), and a unique part. */
  readonly holder = `${os.hostname()}/${process.pid}/${randomUUID()}`;

  constructor(
    private readonly db: Database,
    readonly ttlMs = 30_000,
  ) {}

  /** Whether a live lease on the source belongs to another process. */
  async heldElsewhere(source: string): Promise<boolean> {
    const row = (await this.db<LeaseRow>(TABLE).where({ source }).first()) as LeaseRow | undefined;
    return !!row && row.holder !== this.holder && Date.parse(row.expires_at) > Date.now();
  }

  /** Take the source's lease for a run; false while another live lease holds it. */
  async acquire(source: string, runId: string): Promise<boolean> {
    const now = Date.now();
    await this.db(TABLE).where({ source }).andWhere('expires_at', '<', new Date(now).toISOString()).delete();
    await this.db(TABLE)
      .insert({ source, run_id: runId, holder: this.holder, expires_at: new Date(now + this.ttlMs).toISOString() })
      .onConflict('source')
      .ignore();
    const row = (await this.db<LeaseRow>(TABLE).where({ source }).first()) as LeaseRow | undefined;
    return row?.run_id === runId;
  }

  async renew(source: string, runId: string): Promise<void> {
    await this.db(TABLE)
      .where({ source, run_id: runId })
      .update({ expires_at: new Date(Date.now() + this.ttlMs).toISOString() });
  }

  /**
   * At start: drop the leases of processes on this host that are gone (killed mid-run), and answer the
   * runs that live leases still hold (another process's runs are not interrupted).
   */
  async reclaim(): Promise<Set<string>> {
    const rows = (await this.db<LeaseRow>(TABLE).select()) as LeaseRow[];
    const live = new Set<string>();
    for (const row of rows) {
      if (this.holderIsGone(row.holder) || Date.parse(row.expires_at) <= Date.now())
        await this.db(TABLE).where({ source: row.source, run_id: row.run_id }).delete();
      else live.add(row.run_id);
    }
    return live;
  }

  private holderIsGone(holder: string): boolean {
    const [host, pid] = holder.split('/');
    if (host !== os.hostname() || holder === this.holder) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  async release(source: string, runId: string): Promise<void> {
    await this.db(TABLE).where({ source, run_id: runId }).delete();
  }
}

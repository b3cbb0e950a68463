import { type Database, type Logger, nowIso } from 'vela/plugin';
import type { GatewayHooks, UpstreamStatus } from '../api.js';
import type { Mapping, MappingStore } from '../store/mapping-store.js';
import { probeUpstream } from './upstream-probe.js';

/** One row of `GET /api/v2/monitoring`. */
export interface UpstreamState {
  mappingId: string;
  name: string;
  context: string;
  url: string;
  status: UpstreamStatus;
  latencyMs: number | null;
  lastCheckedAt: string | null;
  lastChangeAt: string | null;
  message: string;
}

interface StatusRow {
  mapping_id: string;
  status: UpstreamStatus;
  latency_ms: number | null;
  last_checked_at: string | null;
  last_change_at: string | null;
  message: string | null;
}

type Observed = Pick<UpstreamState, 'status' | 'latencyMs' | 'lastCheckedAt' | 'lastChangeAt' | 'message'>;

/**
 * Proactive monitoring: checks every mapping's upstream (on the cron schedule, or on demand), keeps
 * status, latency and last change, persists them so a restart remembers, and fires
 * `gateway.upstreamStatusChanged` on every change of status.
 */
export class UpstreamMonitor {
  private readonly observed = new Map<string, Observed>();
  private lastRun: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly mappings: MappingStore,
    private readonly hooks: GatewayHooks,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  async load(): Promise<void> {
    for (const row of await this.db<StatusRow>('gateway_upstream_status').select()) {
      this.observed.set(row.mapping_id, {
        status: row.status,
        latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
        lastCheckedAt: row.last_checked_at,
        lastChangeAt: row.last_change_at,
        message: row.message ?? '',
      });
    }
  }

  list(): UpstreamState[] {
    return this.mappings.list().map((m) => this.stateOf(m));
  }

  /**
   * Check every upstream now (in parallel); resolves when the states and hooks are done. Runs queue
   * behind each other (the cron job and an on-demand check), so two never probe one upstream at once.
   */
  checkAll(): Promise<UpstreamState[]> {
    const run = this.lastRun
      .then(() => Promise.all(this.mappings.list().map((m) => this.check(m))))
      .then(() => this.list());
    this.lastRun = run.catch(() => undefined);
    return run;
  }

  private stateOf(mapping: Mapping): UpstreamState {
    const seen = this.observed.get(mapping.id) ?? {
      status: 'UNKNOWN' as const,
      latencyMs: null,
      lastCheckedAt: null,
      lastChangeAt: null,
      message: 'not checked yet',
    };
    return { mappingId: mapping.id, name: mapping.name, context: mapping.context, url: mapping.url, ...seen };
  }

  private async check(mapping: Mapping): Promise<void> {
    const result = await probeUpstream(mapping, Math.min(this.timeoutMs, mapping.timeoutMs));
    // The mapping may have been deleted while its check ran.
    if (!this.mappings.list().some((m) => m.id === mapping.id)) return;
    const before = this.stateOf(mapping);
    const at = nowIso();
    const changed = before.status !== result.status;
    const next: Observed = {
      status: result.status,
      latencyMs: result.latencyMs,
      lastCheckedAt: at,
      lastChangeAt: changed ? at : before.lastChangeAt,
      message: result.message,
    };
    this.observed.set(mapping.id, next);
    await this.db('gateway_upstream_status')
      .insert({
        mapping_id: mapping.id,
        status: next.status,
        latency_ms: next.latencyMs,
        last_checked_at: next.lastCheckedAt,
        last_change_at: next.lastChangeAt,
        message: next.message,
      })
      .onConflict('mapping_id')
      .merge();
    if (!changed) return;
    this.logger.info(
      { mapping: mapping.name, from: before.status, to: next.status, message: next.message },
      'upstream status changed',
    );
    try {
      await this.hooks.upstreamStatusChanged.promise({
        mappingId: mapping.id,
        name: mapping.name,
        context: mapping.context,
        url: mapping.url,
        from: before.status,
        to: next.status,
        latencyMs: next.latencyMs,
        message: next.message,
        at,
      });
    } catch (error) {
      this.logger.warn({ err: error, mapping: mapping.name }, 'a gateway.upstreamStatusChanged tap failed');
    }
  }
}

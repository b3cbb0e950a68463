import type { Changes, Database } from 'vela/plugin';

export type VersionedKind = 'mappings' | 'apps';

/** The channel a bump is announced on, so other processes reload at once instead of at their next sync. */
export const VERSIONS_CHANNEL = 'gateway.versions';

/**
 * One counter per kind of small state (mappings, apps) in the shared store. A write bumps it; every
 * process compares the counters with what it last saw and reloads the kinds that moved, so several
 * processes on one PostgreSQL database agree within one sync interval.
 */
export class ChangeVersions {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly changes?: Changes,
  ) {}

  async bump(kind: VersionedKind): Promise<void> {
    await this.db('gateway_versions').where({ kind }).increment('version', 1);
    await this.changes?.publish(VERSIONS_CHANNEL, { kind });
  }

  /** The kinds whose counter moved since the last call (every kind on the first call). */
  async changed(): Promise<VersionedKind[]> {
    const rows = await this.db('gateway_versions').select<Array<{ kind: VersionedKind; version: unknown }>>(
      'kind',
      'version',
    );
    const moved: VersionedKind[] = [];
    for (const row of rows) {
      const version = Number(row.version);
      if (this.seen.get(row.kind) !== version) moved.push(row.kind);
      this.seen.set(row.kind, version);
    }
    return moved;
  }
}

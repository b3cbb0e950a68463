import { randomUUID } from 'node:crypto';
import { CachedTable, type Database, type Logger, nowIso, refuseDuplicate, toIso } from 'vela/plugin';
import { gatewayErrors } from '../errors.js';
import { checkHealthCheckPath, parseContext, parseUpstreamUrl } from '../mappings/mapping-fields.js';
import type { ChangeVersions } from './change-versions.js';

/** A registered upstream: called as `/<name>/<sub>` when its context is `/proxy/<name>/<sub>`. */
export interface Mapping {
  id: string;
  name: string;
  context: string;
  url: string;
  description: string;
  timeoutMs: number;
  healthCheckPath: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MappingInput {
  context: string;
  url: string;
  description?: string;
  timeoutMs?: number;
  healthCheckPath?: string | null;
}

interface MappingRow {
  id: string;
  name: string;
  context: string;
  url: string;
  description: string;
  timeout_ms: number | null;
  health_check_path: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The mappings, in the store and in memory (the proxy routes from memory). Every write updates
 * memory, bumps the shared version and tells the listeners (the route table, the monitor).
 */
export class MappingStore {
  private mappings: Mapping[] = [];
  private readonly listeners: Array<(mappings: readonly Mapping[]) => void> = [];
  private readonly table: CachedTable<MappingRow, Mapping>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly defaultTimeoutMs: number,
    logger: Logger,
  ) {
    this.table = new CachedTable({
      db,
      table: 'gateway_mappings',
      keyOf: (row) => row.id,
      fromRow: toMapping,
      logger,
      query: (q) => q.orderBy('context'),
    });
  }

  onChange(listener: (mappings: readonly Mapping[]) => void): void {
    this.listeners.push(listener);
  }

  async load(): Promise<void> {
    await this.table.load();
    this.mappings = this.table.values();
    for (const listener of this.listeners) listener(this.mappings);
  }

  list(): readonly Mapping[] {
    return this.mappings;
  }

  get(id: string): Mapping {
    const found = this.mappings.find((m) => m.id === id);
    if (!found) throw gatewayErrors.mappingNotFound(id);
    return found;
  }

  async create(input: MappingInput): Promise<Mapping> {
    const stamp = nowIso();
    const row = this.toRow(input, randomUUID(), stamp, stamp);
    this.refuseDuplicate(row.context, null);
    await this.write(() => this.db('gateway_mappings').insert(row), row.context);
    return this.get(row.id);
  }

  /** Replace a mapping's fields (members left out keep their value). */
  async update(id: string, input: Partial<MappingInput>): Promise<Mapping> {
    const current = this.get(id);
    const merged: MappingInput = {
      context: input.context ?? current.context,
      url: input.url ?? current.url,
      description: input.description ?? current.description,
      timeoutMs: input.timeoutMs ?? current.timeoutMs,
      healthCheckPath: input.healthCheckPath === undefined ? current.healthCheckPath : input.healthCheckPath,
    };
    const row = this.toRow(merged, id, current.createdAt, nowIso());
    this.refuseDuplicate(row.context, id);
    await this.write(() => this.db('gateway_mappings').where({ id }).update(row), row.context);
    return this.get(id);
  }

  async delete(id: string): Promise<Mapping> {
    const mapping = this.get(id);
    await this.db.transaction(async (trx) => {
      await trx('gateway_mappings').where({ id }).delete();
      await trx('gateway_response_times').where({ mapping_id: id }).delete();
      await trx('gateway_upstream_status').where({ mapping_id: id }).delete();
    });
    await this.changed();
    return mapping;
  }

  private toRow(input: MappingInput, id: string, createdAt: string, updatedAt: string): MappingRow {
    const { context, name } = parseContext(input.context);
    const url = parseUpstreamUrl(input.url);
    return {
      id,
      name,
      context,
      url: url.toString(),
      description: input.description ?? '',
      timeout_ms: input.timeoutMs ?? this.defaultTimeoutMs,
      health_check_path: checkHealthCheckPath(input.healthCheckPath ?? null),
      created_at: createdAt,
      updated_at: updatedAt,
    };
  }

  private refuseDuplicate(context: string, exceptId: string | null): void {
    if (this.mappings.some((m) => m.context === context && m.id !== exceptId))
      throw gatewayErrors.contextTaken(context);
  }

  /** Write, turning the unique index's refusal (another process got there first) into a 409. */
  private async write(op: () => Promise<unknown>, context: string): Promise<void> {
    await refuseDuplicate(op, () => gatewayErrors.contextTaken(context));
    await this.changed();
  }

  private async changed(): Promise<void> {
    await this.versions.bump('mappings');
    await this.load();
  }
}

function toMapping(row: MappingRow): Mapping {
  return {
    id: row.id,
    name: row.name,
    context: row.context,
    url: row.url,
    description: row.description ?? '',
    timeoutMs: Number(row.timeout_ms),
    healthCheckPath: row.health_check_path ?? null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

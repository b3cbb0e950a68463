import { randomUUID } from 'node:crypto';
import {
  CachedTable,
  col,
  type Database,
  type Logger,
  nowIso,
  refuseDuplicate,
  rowCodec,
  type TableRow,
} from 'vela/plugin';
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

const mappings = rowCodec<Mapping>('gateway_mappings', {
  id: 'id',
  name: 'name',
  context: 'context',
  url: 'url',
  description: col.text('description'),
  timeoutMs: col.number('timeout_ms'),
  healthCheckPath: 'health_check_path',
  createdAt: col.timestamp('created_at'),
  updatedAt: col.timestamp('updated_at'),
});

/**
 * The mappings, in the store and in memory (the proxy routes from memory). Every write updates
 * memory, bumps the shared version and tells the listeners (the route table, the monitor).
 */
export class MappingStore {
  private mappings: Mapping[] = [];
  private readonly listeners: Array<(mappings: readonly Mapping[]) => void> = [];
  private readonly table: CachedTable<TableRow, Mapping>;

  constructor(
    private readonly db: Database,
    private readonly versions: ChangeVersions,
    private readonly defaultTimeoutMs: number,
    logger: Logger,
  ) {
    this.table = new CachedTable({ db, ...mappings, logger, query: (q) => q.orderBy('context') });
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
    const mapping = this.toMapping(input, randomUUID(), stamp, stamp);
    this.refuseDuplicate(mapping.context, null);
    await this.write(() => this.db(mappings.table).insert(mappings.toRow(mapping)), mapping.context);
    return this.get(mapping.id);
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
    const mapping = this.toMapping(merged, id, current.createdAt, nowIso());
    this.refuseDuplicate(mapping.context, id);
    await this.write(() => this.db(mappings.table).where({ id }).update(mappings.toRow(mapping)), mapping.context);
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

  private toMapping(input: MappingInput, id: string, createdAt: string, updatedAt: string): Mapping {
    const { context, name } = parseContext(input.context);
    return {
      id,
      name,
      context,
      url: parseUpstreamUrl(input.url).toString(),
      description: input.description ?? '',
      timeoutMs: input.timeoutMs ?? this.defaultTimeoutMs,
      healthCheckPath: checkHealthCheckPath(input.healthCheckPath ?? null),
      createdAt,
      updatedAt,
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

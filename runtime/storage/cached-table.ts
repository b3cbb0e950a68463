import type { Knex } from 'knex';
import type { Logger } from '../logger.js';
import type { Database } from './database.js';
import { isCorruptRow } from './json-column.js';

export interface CachedTableOptions<Row, T> {
  db: Database;
  table: string;
  /** A row's key: the map's key, and how warnings name the row. */
  keyOf: (row: Row) => string;
  /** A row as the store holds it; may throw CorruptRowError (readJson does). */
  fromRow: (row: Row) => T;
  logger: Logger;
  /** Narrow or order the read (`(q) => q.where(...)`); every row by default. */
  query?: (query: Knex.QueryBuilder) => Knex.QueryBuilder;
}

/** Reads a load makes while the store's own writes keep landing, before it keeps the map it has. */
const LOAD_ATTEMPTS = 3;

/**
 * A table held in memory by key, for the stores that answer from memory (read on every request). `load`
 * re-reads every row and swaps the map at once. A corrupt row is skipped, and a warning naming it is logged
 * once (not at each reload) until it reads well again: one bad row must not take the others out of service.
 * The store updates the map itself after its own committed writes (`set`, `delete`) and keeps it fresh
 * across processes with a StoreRefresh whose reload calls `load`.
 *
 * A load's read may run on another connection of the pool and answer from before one of the store's own
 * writes that lands meanwhile; swapped in, it would undo that write in memory until the next load (a deleted
 * API token would work again). Such a read is made again, and when writes land during every attempt the map
 * is kept: it is then at least as new as the database for this process's writes.
 */
export class CachedTable<Row, T> {
  private byKey = new Map<string, T>();
  private readonly reported = new Set<string>();
  /** Counts `set` and `delete`: a load during which it moved read from before one of them. */
  private writes = 0;

  constructor(private readonly options: CachedTableOptions<Row, T>) {}

  async load(): Promise<void> {
    for (let attempt = 0; attempt < LOAD_ATTEMPTS; attempt++) {
      const before = this.writes;
      const rows = await this.read();
      if (before === this.writes) return this.swap(rows);
    }
  }

  private read(): Promise<Row[]> {
    const { db, table, query } = this.options;
    const builder = db(table).select();
    return (query ? query(builder) : builder) as Promise<Row[]>;
  }

  private swap(rows: Row[]): void {
    const { table, keyOf, fromRow, logger } = this.options;
    const next = new Map<string, T>();
    const corrupt = new Set<string>();
    for (const row of rows) {
      const key = keyOf(row);
      try {
        next.set(key, fromRow(row));
      } catch (error) {
        if (!isCorruptRow(error)) throw error;
        corrupt.add(key);
        if (!this.reported.has(key))
          logger.warn({ table, row: key, err: error }, `${error.message}; skipped until it is repaired`);
      }
    }
    this.reported.clear();
    for (const key of corrupt) this.reported.add(key);
    this.byKey = next;
  }

  get(key: string): T | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Every item, in the order the rows were read. */
  values(): T[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }

  /** After the store's own committed write. */
  set(key: string, item: T): void {
    this.writes += 1;
    this.byKey.set(key, item);
  }

  delete(key: string): void {
    this.writes += 1;
    this.byKey.delete(key);
  }
}

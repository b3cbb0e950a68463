import type { Knex } from 'knex';
import { type RowPlace, readJson, writeJson } from './json-column.js';
import { toBool, toIso, toIsoOrNull, toMillis } from './row-values.js';

/** A row as the database answers it, by column name. */
export type TableRow = Record<string, unknown>;

/** How one field is stored: its column, how the column's value reads back, and how the field is written. */
export interface ColumnCodec<V> {
  readonly column: string;
  read(value: unknown, place: RowPlace): V;
  write(value: V): unknown;
}

const asIs = (value: unknown): unknown => value;
const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '';

function codec<V>(
  column: string,
  read: (value: unknown, place: RowPlace) => V,
  write: (value: V) => unknown = asIs,
): ColumnCodec<V> {
  return { column, read, write };
}

/**
 * The columns whose values need more than to be taken as they are, read with the row-values convention
 * (the same on SQLite and PostgreSQL). A field given by its column name alone is read and written as it is.
 */
export const col = {
  /** Written as a boolean; read back from true/false, 1/0 or the text forms (toBool). */
  bool: (column: string) => codec(column, toBool),
  /** An ISO timestamp (toIso). */
  timestamp: (column: string) => codec(column, toIso),
  timestampOrNull: (column: string) => codec(column, toIsoOrNull),
  /** Epoch milliseconds (a bigint column: PostgreSQL answers a string). */
  millis: (column: string) => codec(column, toMillis),
  number: (column: string) => codec(column, Number),
  /** Text whose null (an older row, a hand-written one) reads as `fallback`. */
  text: (column: string, fallback = '') => codec(column, (value) => (value ?? fallback) as string),
  /**
   * A JSON column: written as text, read back with readJson (a corrupt value names table, column and row). With a
   * `fallback`, a column left empty (null) reads as it; without one, an empty column is corrupt.
   */
  json: <V>(column: string, fallback?: V) =>
    codec<V>(
      column,
      (value, place) => (fallback !== undefined && isEmpty(value) ? fallback : readJson<V>(value, place)),
      writeJson,
    ),
};

/** Each field of `T`: its column's name (taken as it is) or its ColumnCodec. */
export type RowMapping<T> = { readonly [K in keyof T]-?: string | ColumnCodec<T[K]> };

/**
 * A table's rows and the records a store holds, mapped both ways from one declaration. `table`, `keyOf` and
 * `fromRow` are what a CachedTable takes: `new CachedTable({ db, logger, ...codec })`.
 */
export interface RowCodec<T, Row extends object = TableRow> {
  readonly table: string;
  /** The row's key (the key column's value), as warnings and corrupt-row errors name it. */
  readonly keyOf: (row: Row) => string;
  readonly fromRow: (row: Row) => T;
  readonly toRow: (item: T) => Row;
  /** The columns of the fields `patch` sets (undefined ones are left out): the changes of an update. */
  readonly toColumns: (patch: Partial<T>) => Partial<Row>;
  /** The items of the rows a query answers (`codec.all(db(codec.table).where(...))`). */
  readonly all: (query: PromiseLike<unknown>) => Promise<T[]>;
  /** The item of the query's first row; undefined when it finds none. */
  readonly first: (query: Knex.QueryBuilder) => Promise<T | undefined>;
}

/**
 * The codec of `table` by `mapping`, e.g. `rowCodec<Rule>('connector_rules', { id: 'id', ruleType: 'rule_type',
 * values: col.json('values'), lastModifiedDate: col.timestamp('last_modified') })`. `key` is the column that
 * names a row.
 */
export function rowCodec<T, Row extends object = TableRow>(
  table: string,
  mapping: RowMapping<T>,
  key = 'id',
): RowCodec<T, Row> {
  const fields = Object.entries(mapping as Record<string, string | ColumnCodec<unknown>>).map(
    ([field, spec]) => [field, typeof spec === 'string' ? codec(spec, asIs) : spec] as const,
  );
  const keyOf = (row: Row) => String((row as TableRow)[key]);
  const fromRow = (row: Row): T => {
    const values = row as TableRow;
    const rowKey = keyOf(row);
    const item: Record<string, unknown> = {};
    for (const [field, c] of fields) item[field] = c.read(values[c.column], { table, column: c.column, row: rowKey });
    return item as T;
  };
  const toColumns = (patch: Partial<T>): Partial<Row> => {
    const values = patch as Record<string, unknown>;
    const row: TableRow = {};
    for (const [field, c] of fields) if (values[field] !== undefined) row[c.column] = c.write(values[field]);
    return row as Partial<Row>;
  };
  const toRow = (item: T): Row => toColumns(item) as Row;
  const all = async (query: PromiseLike<unknown>) => ((await query) as Row[]).map(fromRow);
  const first = async (query: Knex.QueryBuilder) => {
    const row = (await query.first()) as Row | undefined;
    return row ? fromRow(row) : undefined;
  };
  return { table, keyOf, fromRow, toRow, toColumns, all, first };
}

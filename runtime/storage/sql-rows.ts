/**
 * Helpers for statements that write many rows at once, the same on SQLite and PostgreSQL: a batch written as a
 * few multi-row statements instead of knex's builder per chunk (whose query building cost as much as the rows
 * in the import and connector profiles).
 */

/** `items` in slices of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The placeholders of `rows` rows of `columns` values each, for a multi-row VALUES list: `(?, ?), (?, ?)`. */
export function valuesRows(columns: number, rows: number): string {
  const row = `(${new Array(columns).fill('?').join(', ')})`;
  return new Array(rows).fill(row).join(', ');
}

/**
 * A statement's text by row count, made once per count: a batch's statements have a few counts (the full chunk
 * and its remainder). At most 64 are kept.
 */
export function cachedBy(build: (rows: number) => string): (rows: number) => string {
  const cache = new Map<number, string>();
  return (rows) => {
    let sql = cache.get(rows);
    if (sql === undefined) {
      if (cache.size > 64) cache.clear();
      sql = build(rows);
      cache.set(rows, sql);
    }
    return sql;
  };
}

/** The rows of a raw statement: SQLite answers them as they are, PostgreSQL inside a result object. */
export function rowsOf<R>(result: unknown): R[] {
  return (Array.isArray(result) ? result : (result as { rows: R[] }).rows) as R[];
}

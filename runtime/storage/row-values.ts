/**
 * The one convention for the plain values of a row, the same on SQLite and PostgreSQL: what a store writes
 * and how it reads it back, so every store shows API clients the same shapes.
 */

/** Now, as stores write timestamps: an ISO string (UTC, milliseconds), which both databases take and sort. */
export const nowIso = (): string => new Date().toISOString();

/**
 * A boolean column: PostgreSQL answers true/false, SQLite 1/0, a hand-written row may hold '1', 't' or
 * 'true'. Anything else is false.
 */
export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/**
 * A timestamp column as an ISO string: a Date (a PostgreSQL timestamp column), epoch milliseconds, an ISO
 * string, or SQLite's CURRENT_TIMESTAMP text ('YYYY-MM-DD HH:MM:SS', UTC). Text that is no date at all is
 * returned as it is rather than hidden; a missing value is the epoch.
 */
export function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || (typeof value === 'string' && /^\d{10,}$/.test(value)))
    return new Date(Number(value)).toISOString();
  if (typeof value === 'string') {
    const d = new Date(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value,
    );
    return Number.isNaN(d.getTime()) ? value : d.toISOString();
  }
  return new Date(0).toISOString();
}

/** A nullable timestamp column: null stays null. */
export function toIsoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

/** An epoch-milliseconds column (bigint): PostgreSQL answers a string, SQLite a number. */
export function toMillis(value: unknown): number {
  return Number(value);
}

/** Timestamps are written as ISO strings (both SQLite and PostgreSQL take them) and read back as ISO. */
export const now = (): string => new Date().toISOString();

export function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return new Date(value).toISOString();
  if (typeof value === 'string') {
    // SQLite's CURRENT_TIMESTAMP default is 'YYYY-MM-DD HH:MM:SS' in UTC.
    const d = new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? `${value.replace(' ', 'T')}Z` : value);
    return Number.isNaN(d.getTime()) ? value : d.toISOString();
  }
  return new Date(0).toISOString();
}

/** Timestamps are stored as ISO strings (readable in both SQLite and PostgreSQL) or epoch milliseconds. */
export const nowIso = (): string => new Date().toISOString();

/** A bigint column comes back as a string from PostgreSQL and a number from SQLite. */
export const toMillis = (value: unknown): number => Number(value);

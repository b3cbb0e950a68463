import { VelaError } from '../errors.js';

/**
 * Whether a database error is a duplicate key (a unique index or primary key refused the row): SQLite's
 * SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY (node-sqlite3 reports the base code SQLITE_CONSTRAINT and names the
 * constraint in the message), PostgreSQL's 23505. Other constraints (NOT NULL, foreign keys) are not.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return true;
  return (
    e.code === 'SQLITE_CONSTRAINT' &&
    typeof e.message === 'string' &&
    /(UNIQUE|PRIMARY KEY) constraint failed/.test(e.message)
  );
}

/**
 * The 409 a duplicate answers by default: `{"error": "conflict", "message": "<what> with <member> \"<value>\" already exists"}`.
 * A store whose API already documents its own code for it (`source_exists`) passes that error instead.
 */
export function conflictError(what: string, member: string, value: unknown): VelaError {
  return new VelaError('conflict', `${what} with ${member} ${JSON.stringify(value)} already exists`, 409, { member });
}

/**
 * Run a write and turn a duplicate key into `conflict` (a VelaError, usually a 409): the one place a create
 * meets the unique index, so two simultaneous creates of one key (in one process or two) give one success
 * and one 409, never a 500. A check in memory before the write stays useful for the plain case; this is
 * what makes it hold under races.
 */
export async function refuseDuplicate<T>(write: () => Promise<T>, conflict: () => VelaError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

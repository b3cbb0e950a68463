import { VelaError } from '../errors.js';

/** Where a value was read: named in the error a corrupt row raises, so an operator can find and repair it. */
export interface RowPlace {
  table: string;
  column: string;
  /** The row's key, as the store names it (an id, a name). */
  row: string;
}

/**
 * A row the store cannot read (a JSON column that is no JSON, hand-edited or cut short). Over HTTP a 500
 * `corrupt_row` whose message names the table, column and row (logged by the HTTP layer like every 500);
 * a cached table skips such a row with one warning instead (see CachedTable).
 */
export class CorruptRowError extends VelaError {
  readonly place: RowPlace;

  constructor(place: RowPlace, problem: string) {
    super(
      'corrupt_row',
      `row ${JSON.stringify(place.row)} of table ${place.table} is corrupt: column ${place.column} ${problem}; repair or delete the row`,
      500,
      {
        ...place,
      },
    );
    this.name = 'CorruptRowError';
    this.place = place;
  }
}

export function isCorruptRow(error: unknown): error is CorruptRowError {
  return error instanceof CorruptRowError;
}

/** A JSON column as text to write. */
export function writeJson(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * A JSON column read back: text is parsed (PostgreSQL json/jsonb columns arrive parsed already and are taken
 * as they are). Text that is no JSON, or a null in a column that must hold a value, throws CorruptRowError.
 * For a nullable column, test for null first.
 */
export function readJson<T>(value: unknown, place: RowPlace): T {
  if (value === null || value === undefined) throw new CorruptRowError(place, 'is empty');
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw new CorruptRowError(place, `is not valid JSON (${value.length} characters)`);
  }
}

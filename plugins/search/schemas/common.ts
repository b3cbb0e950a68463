import type { JsonSchema } from 'vela/plugin';

/**
 * Ids of sites, fields and tokens: a UUID as the service makes them, or an id a client assigns (the original
 * keeps a given id). 1 to 36 letters, digits, `_` and `-`: the columns hold 36 characters, and a site id
 * names its index snapshot files, so no dots or slashes.
 */
export const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$';
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: ID_PATTERN };

/** Field names are attribute names in imported documents: a letter or `_`, then letters, digits, `_`, `.`, `-`. */
export const FIELD_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_.-]{0,99}$';

export const LOCALE_PATTERN = '^[a-z]{2,3}_[A-Z]{2}$';

/** A field in a path, by id or name. */
export const fieldRefSchema: JsonSchema = {
  type: 'string',
  maxLength: 100,
  pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$',
  description: 'field id (or name)',
};

export const localeSchema: JsonSchema = { type: 'string', maxLength: 6, pattern: LOCALE_PATTERN };

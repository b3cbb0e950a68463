import { type JsonSchema, pathParams, recordSchema, SITE_NAME_PATTERN } from 'vela/plugin';

/**
 * A content path as the repository names nodes: absolute, segments without `.`/`..`, control characters,
 * `?`, `#` or backslashes (spaces are fine: assets have them). `/` alone is the root.
 */
export const CONTENT_PATH_PATTERN = '^(?:/|(?:/(?!\\.\\.?(?:/|$))[^/\\u0000-\\u001f\\u007f?#\\\\]+)+)$';
export const contentPath = new RegExp(CONTENT_PATH_PATTERN);
/** The longest content path (the connector keeps ids of up to 400 characters). */
export const MAX_PATH = 400;
/** The most paths one request may name (a publish of a whole tree sends its root with recursive). */
export const MAX_PATHS = 1000;
/** The longest delivery URL a path list may carry. */
export const MAX_URL = 2000;

export const contentPathSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_PATH,
  pattern: CONTENT_PATH_PATTERN,
};

/** cms source names: used in paths and, with -author or -publish, as the names of their connector sources. */
export const SOURCE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$';
export const sourceNameSchema: JsonSchema = { type: 'string', maxLength: 80, pattern: SOURCE_NAME_PATTERN };

/** Search site names, as the search service takes them. */
export const siteNameSchema: JsonSchema = { type: 'string', maxLength: 100, pattern: SITE_NAME_PATTERN };

export const LOCALE_PATTERN = '^[a-z]{2,3}_[A-Z]{2}$';

/** Search field names a content property may go to. */
export const fieldNameSchema: JsonSchema = {
  type: ['string', 'null'],
  maxLength: 100,
  pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,99}$',
};

export const idParam = pathParams({ id: { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9-]{1,36}$' } });
export const sourceParam = pathParams({ source: sourceNameSchema });

export const sentSchema = recordSchema(
  {
    status: { const: 'sent' },
    runIds: {
      type: 'array',
      items: { type: 'string' },
      description: 'the connector runs started (indexAll); their statistics are under the connector monitoring',
    },
  },
  { required: ['status'] },
);

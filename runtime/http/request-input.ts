import type { JsonSchema } from '../config/schema-validation.js';
import { httpErrors } from '../errors.js';

/** Path parameters, as route specs take them. */
export const pathParams = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties });

/**
 * Search site names appear in URLs: letters, digits, space, `_`, `.` and `-`, 1 to 100 (the column's size). Every
 * plugin that addresses a site in a path takes the same names.
 */
export const SITE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$';

/** A site in a path, by id or name: every id and every name matches this. */
export const siteRefSchema: JsonSchema = {
  type: 'string',
  maxLength: 100,
  pattern: SITE_NAME_PATTERN,
  description: 'site id (or name)',
};

/** A locale as the services write it: `en-us` and ` EN_us ` are `en_US`; anything else as given, trimmed. */
export function normalizeLocale(value: string): string {
  const m = /^([a-zA-Z]{2,3})[-_]([a-zA-Z]{2})$/.exec(value.trim());
  return m ? `${m[1]!.toLowerCase()}_${m[2]!.toUpperCase()}` : value.trim();
}

/**
 * Control characters other than tab, line feed and carriage return (which are white space). PostgreSQL cannot
 * store or compare NUL, and a NUL-only search would otherwise have no term and match every document. The runtime's
 * schema validation refuses NUL in any member, and every control character in members that name something;
 * free text a client typed is checked with checkTypedText.
 */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** The text a client typed, refused (400 invalid_parameter naming `name`) when it holds a control character. */
export function checkTypedText(name: string, value: string): string {
  const found = CONTROL.exec(value);
  if (found) {
    const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw httpErrors.invalidParameter(
      name,
      `must not contain control characters, found U+${code} at position ${found.index + 1}`,
    );
  }
  return value;
}

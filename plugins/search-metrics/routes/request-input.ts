import type { JsonSchema } from 'vela/plugin';
import { metricsErrors } from '../errors.js';

/** A site in a path, by id or name, as the search service's routes take it: every id and every name matches this. */
export const siteRefSchema: JsonSchema = {
  type: 'string',
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$',
  description: 'site id (or name)',
};

/** Path parameters, as route specs take them. */
export const pathParams = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties });

/** A locale as the search service writes it: `en-us` and ` EN_us ` are `en_US`; anything else as given, trimmed. */
export function normalizeLocale(value: string): string {
  const m = /^([a-zA-Z]{2,3})[-_]([a-zA-Z]{2})$/.exec(value.trim());
  return m ? `${m[1]!.toLowerCase()}_${m[2]!.toUpperCase()}` : value.trim();
}

/**
 * Control characters other than tab, line feed and carriage return (which are white space): PostgreSQL cannot
 * compare NUL, and the search refuses them in what a client typed the same way.
 */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** The text a client typed, refused (400 naming `name`) when it holds a control character. */
export function checkTypedText(name: string, value: string): string {
  const found = CONTROL.exec(value);
  if (found) {
    const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw metricsErrors.invalidParameter(
      name,
      `must not contain control characters, found U+${code} at position ${found.index + 1}`,
    );
  }
  return value;
}

import { searchErrors } from '../errors.js';

/**
 * Control characters other than tab, line feed and carriage return (which are white space). No query means
 * one; PostgreSQL cannot store NUL in the metrics tables, and a NUL-only query would otherwise have no term
 * and match every document. The runtime's schema validation refuses NUL in any member, and every control
 * character in members that name something (userId); free text such as `q` is checked here.
 */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** The text a client typed, refused (400 naming `name`) when it holds a control character. */
export function checkTypedText(name: string, value: string): string {
  const found = CONTROL.exec(value);
  if (found) {
    const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw searchErrors.invalidParameter(
      name,
      `must not contain control characters, found U+${code} at position ${found.index + 1}`,
    );
  }
  return value;
}

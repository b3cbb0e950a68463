/**
 * A repository date as ISO 8601 (UTC, to the second), or undefined. Sling renders dates in the ECMAScript
 * form (`Tue Jun 04 2024 10:15:30 GMT+0200`), which Date parses; ISO dates (JSON exports) parse too.
 */
export function slingDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = Date.parse(value.replace(/ \(.*\)$/, ''));
  return Number.isNaN(time) ? undefined : `${new Date(time).toISOString().slice(0, 19)}Z`;
}

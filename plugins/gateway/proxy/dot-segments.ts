/**
 * A path segment "." or ".." would let a request climb out of the upstream's base path: as written,
 * percent-encoded (%2e), between separators an upstream may read as "/" (%2f, a backslash, %5c), or with
 * a ";" parameter after it (servlet containers read "..;x" as "..").
 */
export function hasDotSegment(path: string): boolean {
  if (!path.includes('.') && !path.includes('%')) return false;
  return path
    .replace(/%2e/gi, '.')
    .replace(/%2f|%5c|\\/gi, '/')
    .split('/')
    .some((segment) => {
      const semicolon = segment.indexOf(';');
      const s = semicolon < 0 ? segment : segment.slice(0, semicolon);
      return s === '.' || s === '..';
    });
}

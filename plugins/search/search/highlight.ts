/** Query terms as the engine sees them: lower-case runs of letters and digits. */
export function queryTerms(q: string): string[] {
  if (q.trim() === '*') return [];
  return [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A highlighter for one query: wraps whole-word matches, and words starting with the last term when
 * the search matched it as a prefix (3+ characters, as the engine does).
 */
export function highlighter(terms: string[], pre: string, post: string, prefixLastTerm = false): ((text: string) => string) | null {
  if (terms.length === 0) return null;
  const last = terms[terms.length - 1]!;
  const whole = terms.map(escapeRegExp).join('|');
  const prefix = prefixLastTerm && last.length >= 3 ? `|${escapeRegExp(last)}[\\p{L}\\p{N}]*` : '';
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:(?:${whole})(?![\\p{L}\\p{N}])${prefix})`, 'giu');
  return (text) => text.replace(pattern, (m) => `${pre}${m}${post}`);
}

import { compareStrings } from '@vela/search-text';
import type { FacetColumn } from './facet-column.js';
import type { FacetRequest } from './search-engine.js';
import { selectTop } from './top-k.js';

/**
 * Turns one request's counts (indexed by value code) into [value, count] pairs: values with a count, sorted
 * by count (desc, ties by value) or by value, cut to `limit` (with `allValues`, values with a zero count
 * compete too, after every counted one); then every `include` value that did not make
 * it is added with its real count (possibly 0) and the list is sorted again the same way.
 */
export function facetValues(request: FacetRequest, column: FacetColumn, counts: Uint32Array): Array<[string, number]> {
  const values = column.dictionary.values;
  const rankOf = column.dictionary.rankByCode();
  const size = request.allValues ? Math.min(values.length, counts.length) : counts.length;
  const keep = (code: number) => request.allValues === true || counts[code]! > 0;
  let present = 0;
  for (let code = 0; code < size; code++) if (keep(code)) present++;
  const codes = new Uint32Array(present);
  for (let code = 0, i = 0; code < size; code++) if (keep(code)) codes[i++] = code;

  const byCount = request.sort === 'count';
  const order = byCount
    ? (a: number, b: number) => counts[codes[b]!]! - counts[codes[a]!]! || rankOf[codes[a]!]! - rankOf[codes[b]!]!
    : (a: number, b: number) => rankOf[codes[a]!]! - rankOf[codes[b]!]!;
  const limit = request.limit > 0 ? Math.min(request.limit, present) : present;
  const out: Array<[string, number]> = [];
  for (const i of selectTop(present, limit, order)) out.push([values[codes[i]!]!, counts[codes[i]!]!]);

  const missing = (request.include ?? []).filter((value) => !out.some(([kept]) => kept === value));
  if (missing.length === 0) return out;
  for (const value of new Set(missing)) {
    const code = column.dictionary.codeOf(value);
    out.push([value, code === undefined || code >= counts.length ? 0 : counts[code]!]);
  }
  return out.sort(byCount ? (a, b) => b[1] - a[1] || compareStrings(a[0], b[0]) : (a, b) => compareStrings(a[0], b[0]));
}

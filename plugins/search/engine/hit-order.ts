import { NO_VALUE } from './column-codes.js';
import type { ColumnLookup } from './filter-masks.js';
import type { SortSpec } from './search-engine.js';
import type { Compare } from './top-k.js';

/**
 * The result order over hit indexes i (hit i is ordinals[i] with score scores[i]): the requested key with
 * documents lacking a value last in either direction, then relevance (higher score first), then ordinal, so
 * equal keys still give one stable order.
 */
export function hitOrder(sort: SortSpec, ordinals: Uint32Array, scores: Float64Array, columns: ColumnLookup): Compare {
  const byRelevance: Compare = (a, b) => scores[b]! - scores[a]! || ordinals[a]! - ordinals[b]!;
  if (sort.by === 'relevance') return byRelevance;
  const sign = sort.direction === 'desc' ? -1 : 1;
  if (sort.by === 'number') {
    const values = columns.number(sort.field)?.values;
    if (!values) throw new Error(`sort by "${sort.field}": the engine schema has no such number field`);
    return (a, b) => {
      const x = values[ordinals[a]!]!;
      const y = values[ordinals[b]!]!;
      if (x !== y) {
        // NaN is "no value": it goes last, and NaN !== NaN must not decide anything.
        const xMissing = Number.isNaN(x);
        const yMissing = Number.isNaN(y);
        if (xMissing !== yMissing) return xMissing ? 1 : -1;
        if (!xMissing) return x < y ? -sign : sign;
      }
      return byRelevance(a, b);
    };
  }
  const column = columns.string(sort.field);
  if (!column) throw new Error(`sort by "${sort.field}": the engine schema has no such string field`);
  const codes = column.codes;
  const rankOf = column.dictionary.rankByCode();
  return (a, b) => {
    const x = codes[ordinals[a]!]!;
    const y = codes[ordinals[b]!]!;
    if (x !== y) {
      if (x === NO_VALUE) return 1;
      if (y === NO_VALUE) return -1;
      return (rankOf[x]! - rankOf[y]!) * sign;
    }
    return byRelevance(a, b);
  };
}

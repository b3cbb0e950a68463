import type { FacetColumn } from './facet-column.js';
import { BoundedHeap, type Compare } from './top-k.js';

export const MAX_GROUPS = 100;

export interface HitGroup {
  code: number;
  total: number;
  /** The page of the group's hit indexes, in result order. */
  page: Uint32Array;
}

/**
 * Groups hits 0..hitCount-1 by the value(s) of a facet field (a hit with several values joins each of their
 * groups; a hit without a value joins none). Groups come in the order of their best hit in `compare`, at
 * most MAX_GROUPS; each keeps its total and the hits from `offset` to `offset + limit` in its own order,
 * selected with one bounded heap per group so no group is ever sorted in full.
 */
export function groupHits(
  column: FacetColumn,
  ordinals: Uint32Array,
  hitCount: number,
  compare: Compare,
  offset: number,
  limit: number,
): HitGroup[] {
  const size = column.dictionary.size;
  const totals = new Uint32Array(size);
  const best = new Int32Array(size).fill(-1);
  const heaps: Array<BoundedHeap | undefined> = new Array(size);
  const keep = offset + limit;
  for (let hit = 0; hit < hitCount; hit++) {
    const ordinal = ordinals[hit]!;
    for (let i = 0, n = column.valueCount(ordinal); i < n; i++) {
      const code = column.codeAt(ordinal, i);
      totals[code]!++;
      if (best[code] === -1 || compare(hit, best[code]!) < 0) best[code] = hit;
      if (keep > 0) {
        heaps[code] ??= new BoundedHeap(keep, compare);
        heaps[code]!.push(hit);
      }
    }
  }
  const codes: number[] = [];
  for (let code = 0; code < size; code++) if (totals[code]! > 0) codes.push(code);
  codes.sort((a, b) => compare(best[a]!, best[b]!) || a - b);
  return codes.slice(0, MAX_GROUPS).map((code) => ({
    code,
    total: totals[code]!,
    page: heaps[code]?.sorted().subarray(offset) ?? new Uint32Array(0),
  }));
}

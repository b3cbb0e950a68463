import { compareStrings } from '@vela/search-text';

// Lists of strings sorted in code-unit order (the order of `<`): prefix ranges, merging, and a list kept sorted.

/** Where `value` belongs in `sorted`: the index of the first string that is not less than it. */
export function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first string after every string that starts with `prefix` (not empty), in code-unit order. */
export function successor(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** `old` (sorted) and `fresh` (sorted) as one sorted list: new strings merged in, not sorted again with all. */
function mergeSorted(old: readonly string[], fresh: readonly string[]): string[] {
  const merged: string[] = new Array(old.length + fresh.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.length && j < fresh.length) merged[k++] = old[i]! <= fresh[j]! ? old[i++]! : fresh[j++]!;
  while (i < old.length) merged[k++] = old[i++]!;
  while (j < fresh.length) merged[k++] = fresh[j++]!;
  return merged;
}

/**
 * Strings kept in code-unit order for prefix lookups: the ones added since the last read wait apart and are
 * sorted on their own, then merged in, rather than sorting everything again.
 */
export class SortedStrings {
  private sorted: string[] = [];
  private added: string[] = [];

  add(value: string): void {
    this.added.push(value);
  }

  /** Every string, in order. Read only, and only until the next add. */
  all(): readonly string[] {
    if (this.added.length > 0) {
      this.sorted = mergeSorted(this.sorted, this.added.sort(compareStrings));
      this.added = [];
    }
    return this.sorted;
  }

  /** Hold exactly `values`, in any order given. */
  reset(values: Iterable<string>): void {
    this.sorted = [...values].sort(compareStrings);
    this.added = [];
  }
}

// Lists of strings sorted in code-unit order (the order of `<`): prefix ranges, and merging.

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
export function mergeSorted(old: readonly string[], fresh: readonly string[]): string[] {
  const merged: string[] = new Array(old.length + fresh.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.length && j < fresh.length) merged[k++] = old[i]! <= fresh[j]! ? old[i++]! : fresh[j++]!;
  while (i < old.length) merged[k++] = old[i++]!;
  while (j < fresh.length) merged[k++] = fresh[j++]!;
  return merged;
}

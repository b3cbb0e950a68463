// Prefix ranges in a list of strings sorted in code-unit order (the order of `<`).

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

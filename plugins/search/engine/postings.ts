/**
 * The documents carrying one facet value: sorted ordinals when the value is rare, bitset words when it is
 * common, whichever takes less memory (a bitset costs one word per 32 ordinals whatever the count).
 */
export interface Posting {
  readonly dense: boolean;
  /** Bitset words when dense, else ordinals in ascending order. */
  readonly data: Uint32Array;
}

export function choosesBitset(count: number, words: number): boolean {
  return count > words;
}

// The bit operations below are written out rather than calling bitset.ts: under tsx every call of an
// imported function goes through a CommonJS export getter, which dominates loops this tight.

/** target |= posting */
export function orInto(target: Uint32Array, posting: Posting): void {
  const data = posting.data;
  if (posting.dense) {
    for (let w = 0; w < data.length; w++) target[w]! |= data[w]!;
  } else {
    for (let i = 0; i < data.length; i++) target[data[i]! >>> 5]! |= 1 << (data[i]! & 31);
  }
}

/** target &= posting */
export function andInto(target: Uint32Array, posting: Posting): void {
  const data = posting.data;
  if (posting.dense) {
    const n = Math.min(target.length, data.length);
    for (let w = 0; w < n; w++) target[w]! &= data[w]!;
    target.fill(0, n);
    return;
  }
  // Sparse: keep only the listed ordinals that are already in the target.
  const kept = new Uint32Array(target.length);
  for (let i = 0; i < data.length; i++) {
    const word = data[i]! >>> 5;
    const bit = 1 << (data[i]! & 31);
    if ((target[word]! & bit) !== 0) kept[word]! |= bit;
  }
  target.set(kept);
}

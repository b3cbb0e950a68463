import { hasBit, setBit } from './bitset.js';

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

/** target |= posting */
export function orInto(target: Uint32Array, posting: Posting): void {
  const data = posting.data;
  if (posting.dense) {
    for (let w = 0; w < data.length; w++) target[w]! |= data[w]!;
  } else {
    for (let i = 0; i < data.length; i++) setBit(target, data[i]!);
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
    const ordinal = data[i]!;
    if (hasBit(target, ordinal)) setBit(kept, ordinal);
  }
  target.set(kept);
}

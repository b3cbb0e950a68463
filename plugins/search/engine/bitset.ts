/**
 * Bitsets over document ordinals, stored as Uint32Array words (bit i of word w is ordinal w * 32 + i).
 * Plain functions over the words so the hot loops stay monomorphic and allocation-free.
 */

export function wordCount(bits: number): number {
  return (bits + 31) >>> 5;
}

export function setBit(words: Uint32Array, ordinal: number): void {
  words[ordinal >>> 5]! |= 1 << (ordinal & 31);
}

export function clearBit(words: Uint32Array, ordinal: number): void {
  words[ordinal >>> 5]! &= ~(1 << (ordinal & 31));
}

export function hasBit(words: Uint32Array, ordinal: number): boolean {
  return ((words[ordinal >>> 5]! >>> (ordinal & 31)) & 1) === 1;
}

/** Writes the set bits' ordinals into `out` in ascending order; returns how many. */
export function collectBits(words: Uint32Array, out: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < words.length; w++) {
    let word = words[w]!;
    while (word !== 0) {
      const lowest = word & -word;
      out[n++] = (w << 5) + (31 - Math.clz32(lowest));
      word ^= lowest;
    }
  }
  return n;
}

/** A copy of `words` sized to `length` words (zero-filled when longer). */
export function resizeWords(words: Uint32Array, length: number): Uint32Array {
  const next = new Uint32Array(length);
  next.set(words.length <= length ? words : words.subarray(0, length));
  return next;
}

import type { SparseMatrix } from './sparse-matrix.js';

/**
 * How often each pair of terms is seen within `window` positions of each other in one text, nearer pairs
 * weighing more (a pair d positions apart adds (window − d + 1) / window, word2vec's expected weight). The
 * result is symmetric, with no diagonal (a term beside itself says nothing of its meaning).
 */
export function countCooccurrences(
  tokens: Int32Array,
  starts: Int32Array,
  termCount: number,
  window: number,
): SparseMatrix {
  const pairs = new PairCounts(termCount);
  const weights = Float32Array.from({ length: window + 1 }, (_, d) => (window - d + 1) / window);
  for (let text = 0; text + 1 < starts.length; text++) {
    const end = starts[text + 1]!;
    for (let i = starts[text]!; i < end; i++) {
      const a = tokens[i]!;
      const last = Math.min(end, i + window + 1);
      for (let j = i + 1; j < last; j++) {
        const b = tokens[j]!;
        if (a !== b) pairs.add(Math.min(a, b), Math.max(a, b), weights[j - i]!);
      }
    }
  }
  return pairs.toSymmetricMatrix();
}

/**
 * Pair counts in an open-addressing hash table of typed arrays: a JavaScript Map of millions of pairs would
 * take several times the memory and time. Key = low · n + high + 1 (0 marks an empty slot), which fits in 32
 * bits while n < 2^16.
 */
class PairCounts {
  private keys = new Uint32Array(1 << 16);
  private counts = new Float32Array(1 << 16);
  private shift = 16;
  private size = 0;

  constructor(private readonly termCount: number) {}

  add(low: number, high: number, weight: number): void {
    const key = low * this.termCount + high + 1;
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const found = this.keys[slot]!;
      if (found === key) {
        this.counts[slot]! += weight;
        return;
      }
      if (found === 0) break;
      slot = (slot + 1) & mask;
    }
    this.keys[slot] = key;
    this.counts[slot] = weight;
    if (++this.size * 2 > this.keys.length) this.grow();
  }

  private grow(): void {
    const { keys, counts } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.counts = new Float32Array(keys.length * 2);
    this.shift--;
    const mask = this.keys.length - 1;
    for (let old = 0; old < keys.length; old++) {
      const key = keys[old]!;
      if (key === 0) continue;
      let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.counts[slot] = counts[old]!;
    }
  }

  /** Both (low, high) and (high, low) of every pair; columns within a row in no particular order. */
  toSymmetricMatrix(): SparseMatrix {
    const n = this.termCount;
    const { keys, counts } = this;
    const rowStart = new Int32Array(n + 1);
    for (const key of keys) {
      if (key === 0) continue;
      const low = Math.floor((key - 1) / n);
      rowStart[low + 1]!++;
      rowStart[key - 1 - low * n + 1]!++;
    }
    for (let r = 0; r < n; r++) rowStart[r + 1]! += rowStart[r]!;
    const next = rowStart.slice(0, n);
    const column = new Int32Array(rowStart[n]!);
    const value = new Float32Array(rowStart[n]!);
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot]!;
      if (key === 0) continue;
      const low = Math.floor((key - 1) / n);
      const high = key - 1 - low * n;
      const count = counts[slot]!;
      column[next[low]!] = high;
      value[next[low]!++] = count;
      column[next[high]!] = low;
      value[next[high]!++] = count;
    }
    return { rows: n, columns: n, rowStart, column, value };
  }
}

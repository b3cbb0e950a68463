// Brute-force cosine search: every vector is scored. Exact, and the reference the ANN index is measured against.

import { encodeIndex, isStringArray } from './serialized-index.js';
import { TopK } from './top-k.js';
import { checkedK, unitVector } from './unit-vector.js';
import type { VectorIndex, VectorMatch } from './vector-index.js';

const INITIAL_ROWS = 64;

export class ExactVectorIndex implements VectorIndex {
  readonly kind = 'exact';
  /** Rows 0..size-1 are live and dense: removing moves the last row into the hole. */
  private rows: Float32Array;
  private readonly keys: string[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(readonly dimensions: number) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new RangeError(`bad dimensions ${dimensions}`);
    this.rows = new Float32Array(INITIAL_ROWS * dimensions);
  }

  /** An index over `keys` whose vectors are `rows` (already normalised, row-major). */
  static fromRows(dimensions: number, keys: string[], rows: Float32Array): ExactVectorIndex {
    const index = new ExactVectorIndex(dimensions);
    index.rows = new Float32Array(Math.max(INITIAL_ROWS, keys.length) * dimensions);
    index.rows.set(rows);
    keys.forEach((key, row) => {
      index.keys.push(key);
      index.rowOf.set(key, row);
    });
    return index;
  }

  get size(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    return this.rowOf.has(key);
  }

  upsert(key: string, vector: Float32Array): void {
    const unit = unitVector(vector, this.dimensions);
    let row = this.rowOf.get(key);
    if (row === undefined) {
      row = this.keys.length;
      this.ensureCapacity(row + 1);
      this.keys.push(key);
      this.rowOf.set(key, row);
    }
    this.rows.set(unit, row * this.dimensions);
  }

  remove(key: string): void {
    const row = this.rowOf.get(key);
    if (row === undefined) return;
    const last = this.keys.length - 1;
    if (row !== last) {
      const lastKey = this.keys[last]!;
      this.rows.copyWithin(row * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.keys[row] = lastKey;
      this.rowOf.set(lastKey, row);
    }
    this.keys.pop();
    this.rowOf.delete(key);
  }

  search(vector: Float32Array, k: number, accept?: (key: string) => boolean): VectorMatch[] {
    const query = unitVector(vector, this.dimensions);
    const top = new TopK(Math.min(checkedK(k), this.keys.length));
    const dimensions = this.dimensions;
    const rows = this.rows;
    for (let row = 0; row < this.keys.length; row++) {
      const base = row * dimensions;
      let dot = 0;
      for (let i = 0; i < dimensions; i++) dot += rows[base + i]! * query[i]!;
      // The filter runs only for candidates that would enter, so a costly `accept` is called rarely.
      if (dot > top.threshold && (accept === undefined || accept(this.keys[row]!))) top.offer(row, dot);
    }
    return top.sorted().map(({ id, score }) => ({ key: this.keys[id]!, score }));
  }

  serialize(): Uint8Array {
    const live = this.rows.subarray(0, this.keys.length * this.dimensions);
    const payload = new Uint8Array(live.buffer.slice(live.byteOffset, live.byteOffset + live.byteLength));
    return encodeIndex({ kind: 'exact', dimensions: this.dimensions, meta: { keys: this.keys }, payload });
  }

  /** The index `serialize` wrote, from its decoded parts. */
  static restore(dimensions: number, meta: unknown, payload: Uint8Array): ExactVectorIndex {
    const keys = (meta as { keys?: unknown } | null)?.keys;
    if (!isStringArray(keys) || new Set(keys).size !== keys.length)
      throw new Error('not a serialized vector index: bad keys');
    if (payload.length !== keys.length * dimensions * 4) throw new Error('not a serialized vector index: bad rows');
    const rows = new Float32Array(payload.slice().buffer);
    return ExactVectorIndex.fromRows(dimensions, keys, rows);
  }

  private ensureCapacity(rows: number): void {
    if (rows * this.dimensions <= this.rows.length) return;
    const grown = new Float32Array(Math.max(rows, (this.rows.length / this.dimensions) * 2) * this.dimensions);
    grown.set(this.rows);
    this.rows = grown;
  }
}

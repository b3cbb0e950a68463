// The contract every vector index kind keeps: string keys, cosine similarity, bytes to persist.

export type VectorIndexKind = 'ann' | 'exact';

export interface VectorMatch {
  key: string;
  score: number;
}

export interface VectorIndex {
  readonly kind: VectorIndexKind;
  readonly dimensions: number;
  readonly size: number;
  /** Adds the key, or replaces its vector. The vector is copied and normalised; its length must be `dimensions`. */
  upsert(key: string, vector: Float32Array): void;
  remove(key: string): void;
  has(key: string): boolean;
  /** Best first, cosine similarity (1 = same direction); `accept` filters keys (e.g. to skip some), at most k. */
  search(vector: Float32Array, k: number, accept?: (key: string) => boolean): VectorMatch[];
  serialize(): Uint8Array;
}

// The vector index of the semantic plugin: string keys to unit vectors, searched by cosine similarity.

import { type AnnParameters, AnnVectorIndex, DEFAULT_ANN_PARAMETERS } from './ann-index.js';
import { ExactVectorIndex } from './exact-index.js';
import { decodeIndex } from './serialized-index.js';
import type { VectorIndex, VectorIndexKind } from './vector-index.js';

export type { AnnParameters } from './ann-index.js';
export { DEFAULT_ANN_PARAMETERS } from './ann-index.js';
export type { VectorIndex, VectorIndexKind, VectorMatch } from './vector-index.js';

export interface VectorIndexOptions {
  /** `ann` (default): approximate, fast on large sets. `exact`: scores every vector. */
  kind?: VectorIndexKind;
  /** Graph parameters of an `ann` index (kept in its serialized bytes); each defaults to DEFAULT_ANN_PARAMETERS. */
  ann?: Partial<AnnParameters>;
}

export function createVectorIndex(dimensions: number, options: VectorIndexOptions = {}): VectorIndex {
  if (options.kind === 'exact') return new ExactVectorIndex(dimensions);
  return new AnnVectorIndex(dimensions, { ...DEFAULT_ANN_PARAMETERS, ...options.ann });
}

/** The index whose `serialize()` gave `bytes`; throws on any other bytes. */
export function restoreVectorIndex(bytes: Uint8Array): VectorIndex {
  const { kind, dimensions, meta, payload } = decodeIndex(bytes);
  return kind === 'exact'
    ? ExactVectorIndex.restore(dimensions, meta, payload)
    : AnnVectorIndex.restore(dimensions, meta, payload);
}

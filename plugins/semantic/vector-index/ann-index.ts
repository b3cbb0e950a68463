// Approximate nearest neighbours on usearch's HNSW graph (chosen by scripts/bench/vector-index.ts: recall like
// hnswlib-node at the same cost, less memory, and prebuilt binaries, so installing needs no compiler or network).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import usearch, { type Index as UsearchIndex } from 'usearch';
import { KeyLabels } from './key-labels.js';
import { encodeIndex } from './serialized-index.js';
import { checkedK, unitVector } from './unit-vector.js';
import type { VectorIndex, VectorMatch } from './vector-index.js';

export interface AnnParameters {
  /** Graph degree (HNSW M). */
  connectivity: number;
  /** Candidate list size while inserting (HNSW efConstruction). */
  expansionAdd: number;
  /** Candidate list size while searching (HNSW ef): the recall/latency knob. */
  expansionSearch: number;
}

/** Measured on the Debian corpus embedded by @vela/embedding (scripts/bench/vector-index.ts): recall@10 0.99 against
 *  exact search at under a fiftieth of its query time; vectors with less structure need a larger expansionSearch. */
export const DEFAULT_ANN_PARAMETERS: AnnParameters = { connectivity: 16, expansionAdd: 200, expansionSearch: 128 };

/** How much more than k to ask the graph for when `accept` may reject candidates; doubled until k are accepted. */
const OVERFETCH = 4;

export class AnnVectorIndex implements VectorIndex {
  readonly kind = 'ann';
  private graph: UsearchIndex;

  constructor(
    readonly dimensions: number,
    private readonly parameters: AnnParameters = DEFAULT_ANN_PARAMETERS,
    private readonly labels = new KeyLabels(),
  ) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new RangeError(`bad dimensions ${dimensions}`);
    if (!isAnnParameters(parameters)) throw new RangeError('ann parameters must be positive integers');
    this.graph = newGraph(dimensions, parameters);
  }

  get size(): number {
    return this.labels.size;
  }

  has(key: string): boolean {
    return this.labels.has(key);
  }

  upsert(key: string, vector: Float32Array): void {
    const unit = unitVector(vector, this.dimensions);
    const existing = this.labels.labelOf(key);
    // usearch keeps one vector per label: replacing is remove + add (its freed slot is reused).
    if (existing !== undefined) this.graph.remove(BigInt(existing));
    const label = existing ?? this.labels.add(key);
    // The binding grows the graph's capacity (to the next power of two) when it is full.
    this.graph.add(BigInt(label), unit, 1);
  }

  remove(key: string): void {
    const label = this.labels.remove(key);
    if (label !== undefined) this.graph.remove(BigInt(label));
  }

  search(vector: Float32Array, k: number, accept?: (key: string) => boolean): VectorMatch[] {
    const query = unitVector(vector, this.dimensions);
    const wanted = Math.min(checkedK(k), this.size);
    if (wanted === 0) return [];
    // usearch has no filter callback: ask for more than k and filter, asking for more while too few pass.
    let fetch = accept ? Math.min(this.size, wanted * OVERFETCH) : wanted;
    for (;;) {
      const matches = this.nearest(query, fetch, wanted, accept);
      if (matches.length === wanted || fetch >= this.size) return matches;
      fetch = Math.min(this.size, fetch * 2);
    }
  }

  /** The first `wanted` accepted keys among the graph's `fetch` nearest. */
  private nearest(
    query: Float32Array,
    fetch: number,
    wanted: number,
    accept?: (key: string) => boolean,
  ): VectorMatch[] {
    const found = this.graph.search(query, fetch, 1);
    const matches: VectorMatch[] = [];
    for (let i = 0; i < found.keys.length && matches.length < wanted; i++) {
      const key = this.labels.keyOf(Number(found.keys[i]));
      if (key === undefined || (accept && !accept(key))) continue;
      // Inner-product distance is 1 − dot, and the vectors are unit length.
      matches.push({ key, score: 1 - found.distances[i]! });
    }
    return matches;
  }

  serialize(): Uint8Array {
    const payload = withTemporaryFile((file) => {
      this.graph.save(file);
      return readFileSync(file);
    });
    return encodeIndex({
      kind: 'ann',
      dimensions: this.dimensions,
      meta: { parameters: this.parameters, labels: this.labels.toJSON() },
      payload,
    });
  }

  /** The index `serialize` wrote, from its decoded parts. */
  static restore(dimensions: number, meta: unknown, payload: Uint8Array): AnnVectorIndex {
    const { parameters, labels } = (meta ?? {}) as { parameters?: unknown; labels?: unknown };
    if (!isAnnParameters(parameters)) throw new Error('not a serialized vector index: bad parameters');
    const index = new AnnVectorIndex(dimensions, parameters, KeyLabels.fromJSON(labels));
    withTemporaryFile((file) => {
      writeFileSync(file, payload);
      try {
        index.graph.load(file);
      } catch (error) {
        throw new Error(`not a serialized vector index: ${(error as Error).message}`);
      }
    });
    if (index.graph.dimensions() !== dimensions || index.graph.size() !== index.labels.size) {
      throw new Error('not a serialized vector index: graph and key map disagree');
    }
    return index;
  }
}

function newGraph(dimensions: number, parameters: AnnParameters): UsearchIndex {
  const { connectivity, expansionAdd, expansionSearch } = parameters;
  return new usearch.Index(
    dimensions,
    usearch.MetricKind.IP,
    usearch.ScalarKind.F32,
    connectivity,
    expansionAdd,
    expansionSearch,
    false,
  );
}

function isAnnParameters(value: unknown): value is AnnParameters {
  const candidate = value as Partial<AnnParameters> | null;
  return [candidate?.connectivity, candidate?.expansionAdd, candidate?.expansionSearch].every(
    (n) => Number.isInteger(n) && (n as number) > 0,
  );
}

/** usearch saves and loads only through files: a private temporary directory, always removed. */
function withTemporaryFile<T>(use: (file: string) => T): T {
  const directory = mkdtempSync(join(tmpdir(), 'vela-vector-index-'));
  try {
    return use(join(directory, 'graph.usearch'));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

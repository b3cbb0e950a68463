import { createVectorIndex, restoreVectorIndex, type VectorIndex } from '../vector-index/index.js';

/** A passage's key in the index: the document id, then the passage number. */
const SEPARATOR = '\u0000';
export const passageKey = (docId: string, passage: number) => `${docId}${SEPARATOR}${passage}`;
export const docIdOf = (key: string) => key.slice(0, key.lastIndexOf(SEPARATOR));

const MAGIC = 0x56_53_49_31; // "VSI1"

export interface DocumentMatch {
  id: string;
  score: number;
}

/**
 * The passage vectors of one site, locale and model in an ANN index, with how many passages each document has
 * (to replace or remove them all), and the vector-log seq it is complete up to.
 */
export class HeldIndex {
  private readonly passages: Map<string, number>;
  dirty = false;

  private constructor(
    /** Null until the first vector says the dimensions. */
    private index: VectorIndex | null,
    passages: Iterable<[string, number]>,
    public seq: number,
  ) {
    this.passages = new Map(passages);
  }

  static empty(seq: number): HeldIndex {
    return new HeldIndex(null, [], seq);
  }

  get documents(): number {
    return this.passages.size;
  }

  /** Replace a document's passages (none: it has no vectors now). */
  put(docId: string, vectors: Float32Array[]): void {
    const before = this.passages.get(docId) ?? 0;
    if (vectors.length > 0 && !this.index) this.index = createVectorIndex(vectors[0]!.length);
    // Vectors of another length belong to a model of another size: the index is made again for it.
    if (vectors.length > 0 && this.index && this.index.dimensions !== vectors[0]!.length)
      throw new RangeError(`a vector of ${vectors[0]!.length} dimensions in an index of ${this.index.dimensions}`);
    for (let p = vectors.length; p < before; p++) this.index?.remove(passageKey(docId, p));
    for (const [p, vector] of vectors.entries()) this.index!.upsert(passageKey(docId, p), vector);
    if (vectors.length > 0) this.passages.set(docId, vectors.length);
    else this.passages.delete(docId);
    this.dirty = true;
  }

  /** The documents whose best passage is nearest, best first; `skip`: documents left out. */
  nearest(query: Float32Array, k: number, skip?: ReadonlySet<string>): DocumentMatch[] {
    const index = this.index;
    if (!index || index.size === 0 || k <= 0 || query.length !== index.dimensions) return [];
    const accept = skip && skip.size > 0 ? (key: string) => !skip.has(docIdOf(key)) : undefined;
    // Several passages of one document may be among the nearest: ask for more than k documents' worth.
    const perDocument = index.size / Math.max(1, this.documents);
    const wanted = Math.min(index.size, Math.ceil(k * perDocument * 1.25) + 8);
    const best = new Map<string, number>();
    for (const { key, score } of index.search(query, wanted, accept)) {
      const id = docIdOf(key);
      if (!best.has(id)) best.set(id, score);
    }
    return [...best].slice(0, k).map(([id, score]) => ({ id, score }));
  }

  serialize(meta: Record<string, unknown>): Uint8Array {
    const head = Buffer.from(JSON.stringify({ ...meta, seq: this.seq, passages: [...this.passages] }));
    const body = this.index?.serialize() ?? new Uint8Array(0);
    const out = Buffer.alloc(8 + head.length + body.length);
    out.writeUInt32LE(MAGIC, 0);
    out.writeUInt32LE(head.length, 4);
    head.copy(out, 8);
    out.set(body, 8 + head.length);
    return out;
  }

  /** Throws on bytes `serialize` did not write. */
  static restore(bytes: Uint8Array): { held: HeldIndex; meta: Record<string, unknown> } {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.length < 8 || buffer.readUInt32LE(0) !== MAGIC) throw new Error('not a vector index snapshot');
    const length = buffer.readUInt32LE(4);
    const meta = JSON.parse(buffer.subarray(8, 8 + length).toString('utf8')) as Record<string, unknown> & {
      seq: number;
      passages: Array<[string, number]>;
    };
    const body = buffer.subarray(8 + length);
    const index = body.length > 0 ? restoreVectorIndex(body) : null;
    return { held: new HeldIndex(index, meta.passages, meta.seq), meta };
  }
}

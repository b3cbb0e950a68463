import { createHash } from 'node:crypto';
import { LIMITS } from './options.js';

/** What a trained embedder is: its terms, their idf and unit vectors, and the direction removed from texts. */
export interface EmbedderModel {
  dimensions: number;
  terms: string[];
  /** Inverse document frequency by term id. */
  idf: Float32Array;
  /** Unit word vectors, terms × dimensions, row-major. */
  vectors: Float32Array;
  /** Unit direction removed from every text vector, or null when none is. */
  common: Float32Array | null;
}

// Layout, little-endian: magic (8 bytes), format version, dimensions, term count, flags, term bytes, a reserved
// zero (u32 each, so the float sections start aligned at 32); idf (f32 × terms), vectors (f32 × terms ×
// dimensions), the common direction when flagged (f32 × dimensions); the terms in UTF-8, joined by '\n'
// (never part of a term: the tokenizer splits on it).
const MAGIC = 'VelaEmbd';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 32;
const HAS_COMMON = 1;

export function serializeModel(model: EmbedderModel): Uint8Array {
  const { dimensions, terms, idf, vectors, common } = model;
  const termBytes = new TextEncoder().encode(terms.join('\n'));
  const floats = idf.length + vectors.length + (common ? dimensions : 0);
  const bytes = new Uint8Array(HEADER_BYTES + floats * 4 + termBytes.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  [FORMAT_VERSION, dimensions, terms.length, common ? HAS_COMMON : 0, termBytes.length, 0].forEach((value, i) => {
    view.setUint32(8 + 4 * i, value, true);
  });
  let offset = HEADER_BYTES;
  for (const section of common ? [idf, vectors, common] : [idf, vectors]) {
    writeFloats(view, offset, section);
    offset += section.length * 4;
  }
  bytes.set(termBytes, offset);
  return bytes;
}

/** The model in bytes serializeModel wrote; throws an Error saying what is wrong with any other bytes. */
export function deserializeModel(bytes: Uint8Array): EmbedderModel {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('an embedding model is read from a Uint8Array');
  if (bytes.length < HEADER_BYTES || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC)
    throw new Error('not a Vela embedding model: the bytes do not start with its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [version, dimensions, termCount, flags, termByteCount] = [0, 1, 2, 3, 4].map((i) =>
    view.getUint32(8 + 4 * i, true),
  ) as [number, number, number, number, number];
  if (version !== FORMAT_VERSION)
    throw new Error(`embedding model format ${version} is not supported (this version reads format ${FORMAT_VERSION})`);
  if (dimensions < LIMITS.dimensions[0] || dimensions > LIMITS.dimensions[1] || termCount > LIMITS.vocabulary[1])
    throw new Error(`embedding model header is corrupt (${dimensions} dimensions, ${termCount} terms)`);
  if ((flags & ~HAS_COMMON) !== 0) throw new Error(`embedding model header has unknown flags ${flags}`);
  const hasCommon = (flags & HAS_COMMON) !== 0;
  const floats = termCount + termCount * dimensions + (hasCommon ? dimensions : 0);
  if (bytes.length !== HEADER_BYTES + floats * 4 + termByteCount)
    throw new Error('embedding model is truncated or has bytes past its end');
  let offset = HEADER_BYTES;
  const take = (count: number) => {
    const section = readFloats(view, offset, count);
    offset += count * 4;
    return section;
  };
  const idf = take(termCount);
  const vectors = take(termCount * dimensions);
  const common = hasCommon ? take(dimensions) : null;
  return { dimensions, terms: readTerms(bytes.subarray(offset), termCount), idf, vectors, common };
}

/** Short hash of the model's bytes: equal for equal models, different when retrained on other text. */
export function modelVersion(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

function readTerms(bytes: Uint8Array, count: number): string[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('embedding model terms are not valid UTF-8');
  }
  const terms = count === 0 ? [] : text.split('\n');
  if (terms.length !== count || (count === 0 && text !== ''))
    throw new Error(`embedding model should list ${count} terms, found ${terms.length}`);
  if (new Set(terms).size !== count || terms.includes('')) throw new Error('embedding model terms are not distinct');
  return terms;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function writeFloats(view: DataView, offset: number, values: Float32Array): void {
  if (LITTLE_ENDIAN) {
    new Uint8Array(view.buffer, view.byteOffset + offset, values.byteLength).set(
      new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    );
    return;
  }
  for (let i = 0; i < values.length; i++) view.setFloat32(offset + 4 * i, values[i]!, true);
}

function readFloats(view: DataView, offset: number, count: number): Float32Array {
  const values = new Float32Array(count);
  if (LITTLE_ENDIAN) {
    new Uint8Array(values.buffer).set(new Uint8Array(view.buffer, view.byteOffset + offset, count * 4));
  } else {
    for (let i = 0; i < count; i++) values[i] = view.getFloat32(offset + 4 * i, true);
  }
  for (const value of values) if (!Number.isFinite(value)) throw new Error('embedding model holds a non-finite number');
  return values;
}

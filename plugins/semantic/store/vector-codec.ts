/**
 * How a vector is stored: on SQLite a blob of float32 little-endian, on PostgreSQL a real[] (written as its text
 * form, read back as the numbers the driver parses). Both give back the very float32 values written.
 */

/** Refuses what cannot be stored or compared: an empty vector, NaN or an infinity. */
export function checkVector(vector: Float32Array, dimensions?: number): void {
  if (vector.length === 0) throw new RangeError('a vector needs at least one dimension');
  if (dimensions !== undefined && vector.length !== dimensions)
    throw new RangeError(`a vector of ${vector.length} dimensions among vectors of ${dimensions}`);
  for (const value of vector) if (!Number.isFinite(value)) throw new RangeError('a vector holds NaN or an infinity');
}

export function toBlob(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes;
}

export function fromBlob(value: Uint8Array): Float32Array {
  if (value.byteLength % 4 !== 0) throw new RangeError(`a vector blob of ${value.byteLength} bytes`);
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const vector = new Float32Array(value.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

/**
 * PostgreSQL's array literal. A float32 widened to a double prints as the decimal of that double exactly
 * enough for real's input to round back to the same float32.
 */
export function toPgArray(vector: Float32Array): string {
  return `{${vector.join(',')}}`;
}

/** pgvector's literal (`[1,2,3]`). */
export function toPgvector(vector: Float32Array): string {
  return `[${vector.join(',')}]`;
}

/** A real[] as node-postgres answers it (numbers), or its text form when a driver leaves it unparsed. */
export function fromPgArray(value: unknown): Float32Array {
  if (Array.isArray(value)) return Float32Array.from(value as number[]);
  if (typeof value === 'string') {
    const inner = value.replace(/^\{|\}$/g, '');
    return Float32Array.from(inner === '' ? [] : inner.split(',').map(Number));
  }
  throw new TypeError(`a stored vector of type ${typeof value}`);
}

// Vectors enter an index normalised, so a dot product is their cosine similarity.

/** A normalised copy of `vector`; RangeError when its length is not `dimensions` or it has no direction. */
export function unitVector(vector: Float32Array, dimensions: number): Float32Array {
  if (vector.length !== dimensions) {
    throw new RangeError(`vector has ${vector.length} dimensions, the index has ${dimensions}`);
  }
  let squares = 0;
  for (let i = 0; i < dimensions; i++) squares += vector[i]! * vector[i]!;
  const norm = Math.sqrt(squares);
  if (!(norm > 0) || !Number.isFinite(norm)) throw new RangeError('vector has no direction (zero or not finite)');
  const unit = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) unit[i] = vector[i]! / norm;
  return unit;
}

/** Validated search k: a non-negative integer. */
export function checkedK(k: number): number {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer, got ${k}`);
  return k;
}

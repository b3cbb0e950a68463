/** Cosine similarity of two vectors of one length: 1 same direction, 0 unrelated, −1 opposite; 0 for a zero vector. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Scales the vector to length 1 in place; false (and unchanged) when it is zero. */
export function normalizeInPlace(vector: Float32Array | Float64Array): boolean {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (!(sum > 0)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return true;
}

/** Removes from `vector` its component along the unit vector `direction`, in place. */
export function removeComponent(vector: Float64Array, direction: Float32Array): void {
  let dot = 0;
  for (let i = 0; i < vector.length; i++) dot += vector[i]! * direction[i]!;
  for (let i = 0; i < vector.length; i++) vector[i]! -= dot * direction[i]!;
}

import { seededGaussian } from './random.js';
import { normalizeInPlace } from './vector-math.js';

const ITERATIONS = 100;

/**
 * The first principal direction (uncentred) of unit text vectors (count × dimensions, row-major), by power
 * iteration on their d × d scatter matrix. Text vectors built from word vectors share one large component,
 * mostly the frequent words'; removing it (Arora, Liang & Ma 2017, "SIF") leaves what tells texts apart.
 */
export function commonDirection(vectors: Float64Array, count: number, dimensions: number, seed: number): Float32Array {
  const d = dimensions;
  const scatter = new Float64Array(d * d);
  for (let t = 0; t < count; t++) {
    const base = t * d;
    for (let i = 0; i < d; i++) {
      const xi = vectors[base + i]!;
      if (xi === 0) continue;
      for (let j = i; j < d; j++) scatter[i * d + j]! += xi * vectors[base + j]!;
    }
  }
  for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) scatter[i * d + j] = scatter[j * d + i]!;
  const gaussian = seededGaussian(seed ^ 0x5eed);
  let direction = Float64Array.from({ length: d }, gaussian);
  normalizeInPlace(direction);
  for (let k = 0; k < ITERATIONS; k++) {
    const next = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      let sum = 0;
      for (let j = 0; j < d; j++) sum += scatter[i * d + j]! * direction[j]!;
      next[i] = sum;
    }
    if (!normalizeInPlace(next)) return new Float32Array(d);
    direction = next;
  }
  return Float32Array.from(direction);
}

/**
 * Dense row-major matrices as Float64Array, for the tall thin blocks of the randomized SVD. The loops take
 * four rows (or four terms) per pass over the inner row: a quarter of the loads and stores, about 2.5 times
 * faster in V8 than one at a time.
 */

/** Xᵀ · X of a rows × width matrix: width × width, symmetric, both triangles filled. */
export function gram(x: Float64Array, rows: number, width: number): Float64Array {
  const g = new Float64Array(width * width);
  let r = 0;
  for (; r + 4 <= rows; r += 4) {
    const b0 = r * width;
    const b1 = b0 + width;
    const b2 = b1 + width;
    const b3 = b2 + width;
    for (let i = 0; i < width; i++) {
      const a0 = x[b0 + i]!;
      const a1 = x[b1 + i]!;
      const a2 = x[b2 + i]!;
      const a3 = x[b3 + i]!;
      const g0 = i * width;
      for (let j = i; j < width; j++)
        g[g0 + j]! += a0 * x[b0 + j]! + a1 * x[b1 + j]! + a2 * x[b2 + j]! + a3 * x[b3 + j]!;
    }
  }
  for (; r < rows; r++) {
    const b = r * width;
    for (let i = 0; i < width; i++) {
      const a = x[b + i]!;
      const g0 = i * width;
      for (let j = i; j < width; j++) g[g0 + j]! += a * x[b + j]!;
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) g[i * width + j] = g[j * width + i]!;
  return g;
}

/** X · M, X rows × width, M width × outWidth. */
export function multiplyDense(
  x: Float64Array,
  rows: number,
  width: number,
  m: Float64Array,
  outWidth: number,
): Float64Array {
  const out = new Float64Array(rows * outWidth);
  for (let r = 0; r < rows; r++) {
    const b = r * width;
    const o = r * outWidth;
    let i = 0;
    for (; i + 4 <= width; i += 4) {
      const a0 = x[b + i]!;
      const a1 = x[b + i + 1]!;
      const a2 = x[b + i + 2]!;
      const a3 = x[b + i + 3]!;
      const m0 = i * outWidth;
      const m1 = m0 + outWidth;
      const m2 = m1 + outWidth;
      const m3 = m2 + outWidth;
      for (let j = 0; j < outWidth; j++)
        out[o + j]! += a0 * m[m0 + j]! + a1 * m[m1 + j]! + a2 * m[m2 + j]! + a3 * m[m3 + j]!;
    }
    for (; i < width; i++) {
      const a = x[b + i]!;
      const m0 = i * outWidth;
      for (let j = 0; j < outWidth; j++) out[o + j]! += a * m[m0 + j]!;
    }
  }
  return out;
}

import { gram, multiplyDense } from './dense-matrix.js';

/**
 * A column whose part outside the span of the columns before it has less than this share of its squared
 * length is taken as dependent on them (rounding noise), and becomes a zero column.
 */
const DEPENDENT = 1e-10;

/**
 * An orthonormal basis of the columns of the tall matrix Y (rows × width) by Cholesky QR: Yᵀ Y = Rᵀ R,
 * Q = Y R⁻¹. Two passes over Y (the Gram matrix, then the product) and O(width³) on the small matrix: much
 * cheaper in JavaScript than Householder QR or Gram–Schmidt over the tall matrix. Its orthogonality error
 * grows with the square of Y's condition number, small for the sketches of the randomized SVD, which are
 * re-orthonormalised after every product; dependent columns come out as zero columns.
 */
export function orthonormalize(y: Float64Array, rows: number, width: number): Float64Array {
  return multiplyDense(y, rows, width, inverseCholeskyFactor(gram(y, rows, width), width), width);
}

/** R⁻¹ (upper triangular) of the Cholesky factor of the symmetric Gram matrix g, zero rows and columns for dependent columns. */
function inverseCholeskyFactor(g: Float64Array, n: number): Float64Array {
  const r = new Float64Array(n * n);
  const kept = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    let residual = g[k * n + k]!;
    for (let i = 0; i < k; i++) residual -= r[i * n + k]! ** 2;
    if (!(residual > DEPENDENT * g[k * n + k]!)) continue;
    kept[k] = 1;
    const pivot = Math.sqrt(residual);
    r[k * n + k] = pivot;
    for (let j = k + 1; j < n; j++) {
      let sum = g[k * n + j]!;
      for (let i = 0; i < k; i++) sum -= r[i * n + k]! * r[i * n + j]!;
      r[k * n + j] = sum / pivot;
    }
  }
  // Solve R T = I column by column, bottom up; dependent rows of R are zero and their T rows stay zero.
  const t = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    if (!kept[k]) continue;
    t[k * n + k] = 1 / r[k * n + k]!;
    for (let i = k - 1; i >= 0; i--) {
      if (!kept[i]) continue;
      let sum = 0;
      for (let j = i + 1; j <= k; j++) sum += r[i * n + j]! * t[j * n + k]!;
      t[i * n + k] = -sum / r[i * n + i]!;
    }
  }
  return t;
}

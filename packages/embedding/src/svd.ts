import { gram, multiplyDense } from './dense-matrix.js';
import { orthonormalize } from './orthonormalize.js';
import { seededGaussian } from './random.js';
import { multiply, type SparseMatrix, transpose } from './sparse-matrix.js';
import { symmetricEigen } from './symmetric-eigen.js';

/** The leading left singular vectors (rows × rank, row-major; zero columns past the matrix's rank) and values. */
export interface TruncatedSvd {
  rank: number;
  left: Float64Array;
  values: Float64Array;
}

export interface SvdOptions {
  seed: number;
  /** Passes of A · Aᵀ that sharpen the sketch toward the leading singular vectors (Halko et al. 2011). */
  powerIterations?: number;
  /** Extra sketch columns beyond the rank, which make the leading ones accurate. */
  oversampling?: number;
}

/**
 * Randomized truncated SVD (Halko, Martinsson & Tropp 2011): sketch the range of A with a seeded Gaussian
 * matrix, sharpen it with power iterations (re-orthonormalised after every product, or the columns would
 * all turn toward the leading singular vector), then take the exact SVD of the small projected matrix.
 */
export function truncatedSvd(a: SparseMatrix, rank: number, options: SvdOptions): TruncatedSvd {
  const { seed, powerIterations = 2, oversampling = 16 } = options;
  const width = Math.max(1, Math.min(rank + oversampling, a.rows, a.columns));
  const aT = transpose(a);
  const gaussian = seededGaussian(seed);
  const sketch = Float64Array.from({ length: a.columns * width }, gaussian);
  let q = orthonormalize(multiply(a, sketch, width), a.rows, width);
  for (let i = 0; i < powerIterations; i++) {
    const z = orthonormalize(multiply(aT, q, width), a.columns, width);
    q = orthonormalize(multiply(a, z, width), a.rows, width);
  }
  // B = Qᵀ A is width × columns; B Bᵀ = (Aᵀ Q)ᵀ (Aᵀ Q) gives B's left singular vectors and squared values.
  const small = symmetricEigen(gram(multiply(aT, q, width), a.columns, width), width);
  const kept = Math.min(rank, width);
  const rotation = new Float64Array(width * rank);
  for (let r = 0; r < width; r++) for (let c = 0; c < kept; c++) rotation[r * rank + c] = small.vectors[r * width + c]!;
  const values = new Float64Array(rank);
  for (let c = 0; c < kept; c++) values[c] = Math.sqrt(Math.max(0, small.values[c]!));
  return { rank, left: multiplyDense(q, a.rows, width, rotation, rank), values };
}

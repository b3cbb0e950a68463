import type { SparseMatrix } from './sparse-matrix.js';

/** Context counts are raised to this power before they become probabilities (Levy, Goldberg & Dagan 2015). */
export const CONTEXT_SMOOTHING = 0.75;

/**
 * Positive pointwise mutual information of a symmetric count matrix: log(P(w, c) / (P(w) · Pα(c))) where
 * positive, the rest dropped. Smoothing the context distribution (Pα(c) ∝ count(c)^α) keeps rare contexts
 * from dominating, as they do in plain PMI.
 */
export function positivePmi(counts: SparseMatrix, alpha = CONTEXT_SMOOTHING): SparseMatrix {
  const { rows, rowStart, column, value } = counts;
  const rowSum = new Float64Array(rows);
  for (let r = 0; r < rows; r++) for (let e = rowStart[r]!; e < rowStart[r + 1]!; e++) rowSum[r]! += value[e]!;
  // The matrix is symmetric, so a context's count is its row sum.
  const smoothed = Float64Array.from(rowSum, (sum) => sum ** alpha);
  let smoothedTotal = 0;
  for (const s of smoothed) smoothedTotal += s;
  const keptStart = new Int32Array(rows + 1);
  const keptColumn = new Int32Array(column.length);
  const keptValue = new Float32Array(column.length);
  let kept = 0;
  for (let r = 0; r < rows; r++) {
    keptStart[r] = kept;
    for (let e = rowStart[r]!; e < rowStart[r + 1]!; e++) {
      const c = column[e]!;
      const pmi = Math.log((value[e]! * smoothedTotal) / (rowSum[r]! * smoothed[c]!));
      if (pmi <= 0) continue;
      keptColumn[kept] = c;
      keptValue[kept++] = pmi;
    }
  }
  keptStart[rows] = kept;
  return {
    rows,
    columns: counts.columns,
    rowStart: keptStart,
    column: keptColumn.slice(0, kept),
    value: keptValue.slice(0, kept),
  };
}

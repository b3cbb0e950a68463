/** A sparse matrix in compressed sparse row form: row r's entries are at rowStart[r] up to rowStart[r + 1]. */
export interface SparseMatrix {
  rows: number;
  columns: number;
  rowStart: Int32Array;
  column: Int32Array;
  value: Float32Array;
}

/**
 * A · X, X dense row-major with `width` columns (rows of X = columns of A); the result is row-major too.
 * Four entries of a row are applied per pass over the output row: a quarter of the loads and stores of one
 * at a time, which makes this about twice as fast in V8.
 */
export function multiply(a: SparseMatrix, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  const { rowStart, column, value } = a;
  for (let r = 0; r < a.rows; r++) {
    const o = r * width;
    const end = rowStart[r + 1]!;
    let e = rowStart[r]!;
    for (; e + 4 <= end; e += 4) {
      const w0 = value[e]!;
      const w1 = value[e + 1]!;
      const w2 = value[e + 2]!;
      const w3 = value[e + 3]!;
      const b0 = column[e]! * width;
      const b1 = column[e + 1]! * width;
      const b2 = column[e + 2]! * width;
      const b3 = column[e + 3]! * width;
      for (let c = 0; c < width; c++)
        out[o + c]! += w0 * x[b0 + c]! + w1 * x[b1 + c]! + w2 * x[b2 + c]! + w3 * x[b3 + c]!;
    }
    for (; e < end; e++) {
      const w = value[e]!;
      const b = column[e]! * width;
      for (let c = 0; c < width; c++) out[o + c]! += w * x[b + c]!;
    }
  }
  return out;
}

/** Aᵀ in the same form (columns within a row ascending). */
export function transpose(a: SparseMatrix): SparseMatrix {
  const { rowStart, column, value } = a;
  const start = new Int32Array(a.columns + 1);
  for (let e = 0; e < column.length; e++) start[column[e]! + 1]!++;
  for (let c = 0; c < a.columns; c++) start[c + 1]! += start[c]!;
  const next = start.slice(0, a.columns);
  const transposedColumn = new Int32Array(column.length);
  const transposedValue = new Float32Array(column.length);
  for (let r = 0; r < a.rows; r++) {
    for (let e = rowStart[r]!; e < rowStart[r + 1]!; e++) {
      const slot = next[column[e]!]!++;
      transposedColumn[slot] = r;
      transposedValue[slot] = value[e]!;
    }
  }
  return { rows: a.columns, columns: a.rows, rowStart: start, column: transposedColumn, value: transposedValue };
}

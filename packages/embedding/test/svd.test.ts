import test from 'ava';
import { gram } from '../src/dense-matrix.js';
import { orthonormalize } from '../src/orthonormalize.js';
import { seededGaussian } from '../src/random.js';
import type { SparseMatrix } from '../src/sparse-matrix.js';
import { multiply, transpose } from '../src/sparse-matrix.js';
import { truncatedSvd } from '../src/svd.js';
import { symmetricEigen } from '../src/symmetric-eigen.js';

/** A dense matrix (row-major) in sparse form, zeros left out. */
function sparse(values: number[], rows: number, columns: number): SparseMatrix {
  const rowStart = new Int32Array(rows + 1);
  const column: number[] = [];
  const value: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if (values[r * columns + c] === 0) continue;
      column.push(c);
      value.push(values[r * columns + c]!);
    }
    rowStart[r + 1] = column.length;
  }
  return { rows, columns, rowStart, column: Int32Array.from(column), value: Float32Array.from(value) };
}

function maxOffIdentity(g: Float64Array, n: number, skipZeroDiagonal = false): number {
  let error = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (skipZeroDiagonal && (g[i * n + i] === 0 || g[j * n + j] === 0)) continue;
      error = Math.max(error, Math.abs(g[i * n + j]! - (i === j ? 1 : 0)));
    }
  return error;
}

test('symmetric eigen decomposition: values largest first, A v = λ v', (t) => {
  const a = Float64Array.from([4, 1, 2, 1, 3, 0, 2, 0, 5]);
  const { values, vectors } = symmetricEigen(a, 3);
  t.true(values[0]! >= values[1]! && values[1]! >= values[2]!);
  t.true(Math.abs(values[0]! + values[1]! + values[2]! - 12) < 1e-9, 'trace kept');
  for (let c = 0; c < 3; c++)
    for (let r = 0; r < 3; r++) {
      let av = 0;
      for (let k = 0; k < 3; k++) av += a[r * 3 + k]! * vectors[k * 3 + c]!;
      t.true(Math.abs(av - values[c]! * vectors[r * 3 + c]!) < 1e-9);
    }
});

test('orthonormalize gives orthonormal columns, and zero columns for dependent ones', (t) => {
  const gaussian = seededGaussian(3);
  const rows = 50;
  const y = Float64Array.from({ length: rows * 6 }, gaussian);
  for (let r = 0; r < rows; r++) y[r * 6 + 4] = y[r * 6]! * 2 - y[r * 6 + 1]!;
  const q = orthonormalize(y, rows, 6);
  const g = gram(q, rows, 6);
  t.true(g[4 * 6 + 4]! < 1e-12, 'the dependent column is zero');
  t.true(maxOffIdentity(g, 6, true) < 1e-10);
});

test('truncated SVD finds the leading singular values and orthonormal vectors', (t) => {
  // Diagonal with known values, its rows and columns permuted: the SVD must find 9, 7 and 5.
  const n = 40;
  const values = Array.from({ length: n }, (_, i) => (i === 3 ? 9 : i === 17 ? 7 : i === 30 ? 5 : 0.1));
  const dense = new Array<number>(n * n).fill(0);
  values.forEach((v, i) => {
    dense[i * n + ((i * 7) % n)] = v;
  });
  const a = sparse(dense, n, n);
  const svd = truncatedSvd(a, 3, { seed: 1, oversampling: 5 });
  t.deepEqual(
    Array.from(svd.values, (v) => Math.round(v * 1e4) / 1e4),
    [9, 7, 5],
  );
  t.true(maxOffIdentity(gram(svd.left, n, 3), 3) < 1e-9);
  t.true(Math.abs(Math.abs(svd.left[3 * 3]!) - 1) < 1e-6, 'first vector is e3');
});

test('transpose and multiply agree with the dense product', (t) => {
  // 1 0 2 0 3 / 0 4 5 6 0 / 0 7 1 1 1
  const a = sparse([1, 0, 2, 0, 3, 0, 4, 5, 6, 0, 0, 7, 1, 1, 1], 3, 5);
  const x = Float64Array.from([1, 2, 3]);
  t.deepEqual(Array.from(multiply(transpose(a), x, 1)), [1, 29, 15, 15, 6]);
  const y = Float64Array.from([1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
  t.deepEqual(Array.from(multiply(a, y, 2)), [9, 11, 21, 26, 12, 13], 'row 2 has four entries, the unrolled path');
});

/** Eigenvalues (largest first) and unit eigenvectors (column c of the row-major n × n `vectors`). */
export interface Eigen {
  values: Float64Array;
  vectors: Float64Array;
}

const MAX_SWEEPS = 100;

/**
 * Eigen decomposition of a small symmetric matrix (row-major, n × n, only the upper triangle read) by the
 * cyclic Jacobi method: slower than Householder + QL for large n but short, exact to rounding and stable,
 * and here n is only the sketch width of the randomized SVD.
 */
export function symmetricEigen(matrix: Float64Array, n: number): Eigen {
  const a = matrix.slice();
  const v = new Float64Array(n * n);
  const d = new Float64Array(n);
  const b = new Float64Array(n);
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    v[i * n + i] = 1;
    d[i] = b[i] = a[i * n + i]!;
  }
  for (let sweep = 1; sweep <= MAX_SWEEPS; sweep++) {
    let offDiagonal = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) offDiagonal += Math.abs(a[p * n + q]!);
    if (offDiagonal === 0) break;
    const threshold = sweep < 4 ? (0.2 * offDiagonal) / (n * n) : 0;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        const g = 100 * Math.abs(apq);
        if (sweep > 4 && Math.abs(d[p]!) + g === Math.abs(d[p]!) && Math.abs(d[q]!) + g === Math.abs(d[q]!)) {
          a[p * n + q] = 0;
        } else if (Math.abs(apq) > threshold) {
          rotate(a, v, d, z, n, p, q);
        }
      }
    }
    for (let i = 0; i < n; i++) {
      b[i]! += z[i]!;
      d[i] = b[i]!;
      z[i] = 0;
    }
  }
  return sortedDescending(d, v, n);
}

/** One Jacobi rotation that zeroes a[p][q] (Numerical Recipes' form, upper triangle only). */
function rotate(a: Float64Array, v: Float64Array, d: Float64Array, z: Float64Array, n: number, p: number, q: number) {
  const apq = a[p * n + q]!;
  const g = 100 * Math.abs(apq);
  let h = d[q]! - d[p]!;
  let t: number;
  if (Math.abs(h) + g === Math.abs(h)) {
    t = apq / h;
  } else {
    const theta = (0.5 * h) / apq;
    t = 1 / (Math.abs(theta) + Math.sqrt(1 + theta * theta));
    if (theta < 0) t = -t;
  }
  const c = 1 / Math.sqrt(1 + t * t);
  const s = t * c;
  const tau = s / (1 + c);
  h = t * apq;
  z[p]! -= h;
  z[q]! += h;
  d[p]! -= h;
  d[q]! += h;
  a[p * n + q] = 0;
  const turn = (m: Float64Array, i: number, j: number) => {
    const x = m[i]!;
    const y = m[j]!;
    m[i] = x - s * (y + x * tau);
    m[j] = y + s * (x - y * tau);
  };
  for (let j = 0; j < p; j++) turn(a, j * n + p, j * n + q);
  for (let j = p + 1; j < q; j++) turn(a, p * n + j, j * n + q);
  for (let j = q + 1; j < n; j++) turn(a, p * n + j, q * n + j);
  for (let j = 0; j < n; j++) turn(v, j * n + p, j * n + q);
}

function sortedDescending(d: Float64Array, v: Float64Array, n: number): Eigen {
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => d[j]! - d[i]! || i - j);
  const values = Float64Array.from(order, (i) => d[i]!);
  const vectors = new Float64Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) vectors[r * n + c] = v[r * n + order[c]!]!;
  return { values, vectors };
}

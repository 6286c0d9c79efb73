import { seededRandom } from './tokenize.js';

/** A sparse matrix in compressed sparse row form (rows = documents, columns = terms). */
export interface Csr {
  rows: number;
  cols: number;
  indptr: Uint32Array;
  indices: Uint32Array;
  values: Float32Array;
}

/**
 * Truncated SVD of a sparse matrix by randomized range finding (Halko, Martinsson & Tropp 2011):
 * Y = A·Ω with `oversample` extra columns and `powerIterations` rounds of (A·Aᵀ) to sharpen the
 * spectrum, Q = orth(Y), then the exact SVD of the small B = Qᵀ·A through the eigenvectors of
 * B·Bᵀ (Jacobi). Returns the top-k right singular vectors (cols × k, row-major) and singular
 * values. Deterministic for a seed.
 */
export function randomizedSvd(
  a: Csr,
  k: number,
  options: { oversample?: number; powerIterations?: number; seed?: number } = {},
): { v: Float32Array; sigma: Float32Array; k: number } {
  const l = Math.min(k + (options.oversample ?? 10), a.rows, a.cols);
  const random = seededRandom(options.seed ?? 1);
  const gauss = () => {
    const u = random() || 1e-12;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const omega = new Float32Array(a.cols * l);
  for (let i = 0; i < omega.length; i++) omega[i] = gauss();
  // Intermediate bases only need to keep the columns apart (one CholeskyQR pass); the final basis
  // Q must be orthonormal to working precision (two passes).
  let y = mulDense(a, omega, l); // rows × l
  const iterations = options.powerIterations ?? 2;
  orthonormalize(y, a.rows, l, iterations === 0 ? 2 : 1);
  for (let q = 0; q < iterations; q++) {
    const z = mulTransposeDense(a, y, l); // cols × l
    orthonormalize(z, a.cols, l, 1);
    y = mulDense(a, z, l);
    orthonormalize(y, a.rows, l, q === iterations - 1 ? 2 : 1);
  }
  const b = mulTransposeDense(a, y, l); // cols × l  (= Bᵀ)
  const gram = new Float64Array(l * l); // B·Bᵀ = bᵀ b
  for (let r = 0; r < a.cols; r++) {
    const off = r * l;
    for (let i = 0; i < l; i++) {
      const bi = b[off + i] as number;
      if (bi === 0) continue;
      for (let j = i; j < l; j++) gram[i * l + j] = (gram[i * l + j] as number) + bi * (b[off + j] as number);
    }
  }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) gram[i * l + j] = gram[j * l + i] as number;
  const { values, vectors } = jacobiEigen(gram, l);
  const order = [...values.keys()].sort((x, y2) => (values[y2] as number) - (values[x] as number));
  const kk = Math.min(k, l);
  const sigma = new Float32Array(kk);
  const v = new Float32Array(a.cols * kk);
  for (let c = 0; c < kk; c++) {
    const e = order[c] as number;
    const s = Math.sqrt(Math.max(0, values[e] as number));
    sigma[c] = s;
    if (s === 0) continue;
    // right singular vector: Bᵀ u / σ
    for (let r = 0; r < a.cols; r++) {
      let acc = 0;
      const off = r * l;
      for (let i = 0; i < l; i++) acc += (b[off + i] as number) * (vectors[i * l + e] as number);
      v[r * kk + c] = acc / s;
    }
  }
  return { v, sigma, k: kk };
}

/** A (rows × cols, sparse) · X (cols × l, dense row-major) → rows × l. */
function mulDense(a: Csr, x: Float32Array, l: number): Float32Array {
  const out = new Float32Array(a.rows * l);
  for (let r = 0; r < a.rows; r++) {
    const o = r * l;
    for (let p = a.indptr[r] as number; p < (a.indptr[r + 1] as number); p++) {
      const w = a.values[p] as number;
      const xo = (a.indices[p] as number) * l;
      for (let j = 0; j < l; j++) out[o + j] = (out[o + j] as number) + w * (x[xo + j] as number);
    }
  }
  return out;
}

/** Aᵀ (cols × rows) · Y (rows × l) → cols × l. */
function mulTransposeDense(a: Csr, y: Float32Array, l: number): Float32Array {
  const out = new Float32Array(a.cols * l);
  for (let r = 0; r < a.rows; r++) {
    const yo = r * l;
    for (let p = a.indptr[r] as number; p < (a.indptr[r + 1] as number); p++) {
      const w = a.values[p] as number;
      const o = (a.indices[p] as number) * l;
      for (let j = 0; j < l; j++) out[o + j] = (out[o + j] as number) + w * (y[yo + j] as number);
    }
  }
  return out;
}

/**
 * Orthonormalises the l columns of an n × l row-major matrix in place by CholeskyQR2 (G = YᵀY,
 * Y ← Y·R⁻¹ with R = chol(G); a second pass (CholeskyQR2) restores orthogonality lost to rounding). Every pass reads rows contiguously, which is
 * what makes it fast on row-major storage; a rank-deficient column is zeroed.
 */
function orthonormalize(m: Float32Array, n: number, l: number, passes: number): void {
  for (let pass = 0; pass < passes; pass++) {
    const g = new Float64Array(l * l);
    for (let r = 0; r < n; r++) {
      const o = r * l;
      for (let i = 0; i < l; i++) {
        const yi = m[o + i] as number;
        if (yi === 0) continue;
        const gi = i * l;
        for (let j = i; j < l; j++) g[gi + j] = (g[gi + j] as number) + yi * (m[o + j] as number);
      }
    }
    const rmat = cholesky(g, l); // upper-triangular R with RᵀR = G
    const row = new Float64Array(l);
    for (let r = 0; r < n; r++) {
      const o = r * l;
      // solve x·R = y  (forward substitution over columns)
      for (let j = 0; j < l; j++) {
        const d = rmat[j * l + j] as number;
        if (d === 0) {
          row[j] = 0;
          continue;
        }
        let acc = m[o + j] as number;
        for (let i = 0; i < j; i++) acc -= (row[i] as number) * (rmat[i * l + j] as number);
        row[j] = acc / d;
      }
      for (let j = 0; j < l; j++) m[o + j] = row[j] as number;
    }
  }
}

/** Upper Cholesky factor of the symmetric matrix whose upper triangle is in g; tiny pivots → 0. */
function cholesky(g: Float64Array, l: number): Float64Array {
  const r = new Float64Array(l * l);
  let scale = 0;
  for (let i = 0; i < l; i++) scale = Math.max(scale, g[i * l + i] as number);
  const eps = 1e-10 * (scale || 1);
  for (let j = 0; j < l; j++) {
    let d = g[j * l + j] as number;
    for (let k = 0; k < j; k++) d -= (r[k * l + j] as number) ** 2;
    if (d <= eps) continue; // rank deficient: this column becomes zero
    const rjj = Math.sqrt(d);
    r[j * l + j] = rjj;
    for (let i = j + 1; i < l; i++) {
      let v = g[j * l + i] as number;
      for (let k = 0; k < j; k++) v -= (r[k * l + j] as number) * (r[k * l + i] as number);
      r[j * l + i] = v / rjj;
    }
  }
  return r;
}

/** Eigen-decomposition of a symmetric n × n matrix by cyclic Jacobi rotations. */
export function jacobiEigen(input: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += (a[p * n + q] as number) ** 2;
    if (off < 1e-20) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = ((a[q * n + q] as number) - (a[p * n + p] as number)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p] as number;
          const akq = a[k * n + q] as number;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k] as number;
          const aqk = a[q * n + k] as number;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p] as number;
          const vkq = v[k * n + q] as number;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a[i * n + i] as number;
  return { values, vectors: v };
}

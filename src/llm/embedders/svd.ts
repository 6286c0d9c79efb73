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
  let y = mulDense(a, omega, l); // rows × l
  orthonormalize(y, a.rows, l);
  for (let q = 0; q < (options.powerIterations ?? 2); q++) {
    const z = mulTransposeDense(a, y, l); // cols × l
    orthonormalize(z, a.cols, l);
    y = mulDense(a, z, l);
    orthonormalize(y, a.rows, l);
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

/** Modified Gram–Schmidt on the l columns of an n × l row-major matrix, in place. */
function orthonormalize(m: Float32Array, n: number, l: number): void {
  const col = new Float64Array(n);
  for (let j = 0; j < l; j++) {
    for (let i = 0; i < n; i++) col[i] = m[i * l + j] as number;
    for (let pass = 0; pass < 2; pass++) {
      for (let p = 0; p < j; p++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += (col[i] as number) * (m[i * l + p] as number);
        for (let i = 0; i < n; i++) col[i] = (col[i] as number) - dot * (m[i * l + p] as number);
      }
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += (col[i] as number) ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < n; i++) m[i * l + j] = norm > 1e-10 ? (col[i] as number) / norm : 0;
  }
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

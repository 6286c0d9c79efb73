import { createRandom } from '../../stats/index.js';

/** A sparse matrix in compressed sparse row form (rows = documents, columns = terms). */
export interface Csr {
  rows: number;
  cols: number;
  indptr: Uint32Array;
  indices: Uint32Array;
  values: Float32Array | Float64Array;
}

/**
 * Truncated SVD of a sparse matrix by randomized range finding (Halko, Martinsson & Tropp 2011):
 * Y = (A·Aᵀ)^q·A·Ω with `oversample` extra columns and q = `powerIterations`, then Rayleigh–Ritz
 * in span(Y): the exact SVD of B = Qᵀ·A, Q = orth(Y), through the eigenvectors of B·Bᵀ.
 * Returns the top-k right singular vectors (cols × k, row-major) and singular values.
 * Deterministic for a seed.
 *
 * Q is never formed. With Y = Q·R (R = chol(YᵀY)), B·Bᵀ = R⁻ᵀ·(AᵀY)ᵀ(AᵀY)·R⁻¹ and the right
 * singular vectors are Bᵀ·u/σ = (AᵀY)·(R⁻¹·u/σ), so the only dense work on the tall matrices is
 * two Gram products and one (cols × l)·(l × k) product: about a fifth of what orthonormalising
 * Y and the intermediate bases explicitly cost (CholeskyQR2 at each power step was 56% of
 * `citegeist index` on QASPER dev). The power steps are not re-orthonormalised: they run in
 * float64, where the ratio (σ₁/σ_l)^(2q+1) that separates the columns stays far inside the
 * precision (≈ 1.5·10⁴ for QASPER dev's TF-IDF at q = 2, against 10¹⁶).
 */
export function randomizedSvd(
  a: Csr,
  k: number,
  options: { oversample?: number; powerIterations?: number; seed?: number } = {},
): { v: Float32Array; sigma: Float32Array; k: number } {
  const l = Math.min(k + (options.oversample ?? 10), a.rows, a.cols);
  const random = createRandom(options.seed ?? 1);
  const gauss = () => {
    const u = random() || 1e-12;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const omega = new Float64Array(a.cols * l);
  for (let i = 0; i < omega.length; i++) omega[i] = Math.fround(gauss());
  let y = mulDense(a, omega, l); // rows × l
  for (let q = 0; q < (options.powerIterations ?? 2); q++) {
    scaleColumns(y, a.rows, l);
    y = mulDense(a, mulTransposeDense(a, y, l), l);
  }
  scaleColumns(y, a.rows, l);
  const r = cholesky(gram(y, a.rows, l), l); // Y = Q·R
  const aty = mulTransposeDense(a, y, l); // cols × l: Aᵀ·Y = Bᵀ·R
  const h = gram(aty, a.cols, l);
  fillLower(h, l);
  // M = R⁻ᵀ·H·R⁻¹ = B·Bᵀ, by two triangular solves (columns of R that are 0 are rank-deficient: skipped).
  const m = solveRight(solveRight(h, r, l, false), r, l, true);
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) m[i * l + j] = m[j * l + i] as number;
  const { values, vectors } = symmetricEigen(m, l);
  const order = [...values.keys()].sort((x, y2) => (values[y2] as number) - (values[x] as number));
  const kk = Math.min(k, l);
  const sigma = new Float32Array(kk);
  // T = R⁻¹·U·Σ⁻¹ (l × kk), so that V = (AᵀY)·T.
  const t = new Float64Array(l * kk);
  for (let c = 0; c < kk; c++) {
    const e = order[c] as number;
    const s = Math.sqrt(Math.max(0, values[e] as number));
    sigma[c] = s;
    if (s === 0) continue;
    for (let i = l - 1; i >= 0; i--) {
      const d = r[i * l + i] as number;
      if (d === 0) continue;
      let acc = (vectors[i * l + e] as number) / s;
      for (let j = i + 1; j < l; j++) acc -= (r[i * l + j] as number) * (t[j * kk + c] as number);
      t[i * kk + c] = acc / d;
    }
  }
  return { v: multiply(aty, a.cols, l, t, kk), sigma, k: kk };
}

/** A (rows × cols, sparse) · X (cols × l, dense row-major) → rows × l. */
function mulDense(a: Csr, x: Float64Array, l: number): Float64Array {
  const out = new Float64Array(a.rows * l);
  for (let r = 0; r < a.rows; r++) {
    const o = r * l;
    for (let p = a.indptr[r] as number; p < (a.indptr[r + 1] as number); p++) {
      const w = a.values[p] as number;
      const xo = (a.indices[p] as number) * l;
      axpy(out, o, x, xo, w, l);
    }
  }
  return out;
}

/** Aᵀ (cols × rows) · Y (rows × l) → cols × l. */
function mulTransposeDense(a: Csr, y: Float64Array, l: number): Float64Array {
  const out = new Float64Array(a.cols * l);
  for (let r = 0; r < a.rows; r++) {
    const yo = r * l;
    for (let p = a.indptr[r] as number; p < (a.indptr[r + 1] as number); p++) {
      const w = a.values[p] as number;
      axpy(out, (a.indices[p] as number) * l, y, yo, w, l);
    }
  }
  return out;
}

/** out[o .. o+l) += w · x[xo .. xo+l), four at a time (the inner loop of both sparse products). */
function axpy(out: Float64Array, o: number, x: Float64Array, xo: number, w: number, l: number): void {
  let j = 0;
  for (; j + 4 <= l; j += 4) {
    out[o + j] = (out[o + j] as number) + w * (x[xo + j] as number);
    out[o + j + 1] = (out[o + j + 1] as number) + w * (x[xo + j + 1] as number);
    out[o + j + 2] = (out[o + j + 2] as number) + w * (x[xo + j + 2] as number);
    out[o + j + 3] = (out[o + j + 3] as number) + w * (x[xo + j + 3] as number);
  }
  for (; j < l; j++) out[o + j] = (out[o + j] as number) + w * (x[xo + j] as number);
}

/** Scales each column of an n × l row-major matrix to unit length (keeps power steps in range). */
function scaleColumns(m: Float64Array, n: number, l: number): void {
  const norms = new Float64Array(l);
  for (let r = 0; r < n; r++) {
    const o = r * l;
    for (let j = 0; j < l; j++) norms[j] = (norms[j] as number) + (m[o + j] as number) ** 2;
  }
  for (let j = 0; j < l; j++) norms[j] = norms[j] ? 1 / Math.sqrt(norms[j] as number) : 0;
  for (let r = 0; r < n; r++) {
    const o = r * l;
    for (let j = 0; j < l; j++) m[o + j] = (m[o + j] as number) * (norms[j] as number);
  }
}

/**
 * Upper triangle of MᵀM for an n × l row-major M. Eight rows are folded into each pass over the
 * l × l accumulator, so it is read and written n/8 times instead of n (it does not fit in cache).
 */
function gram(m: Float64Array, n: number, l: number): Float64Array {
  const g = new Float64Array(l * l);
  let r = 0;
  for (; r + 8 <= n; r += 8) {
    const o0 = r * l;
    const o1 = o0 + l;
    const o2 = o1 + l;
    const o3 = o2 + l;
    const o4 = o3 + l;
    const o5 = o4 + l;
    const o6 = o5 + l;
    const o7 = o6 + l;
    for (let i = 0; i < l; i++) {
      const a0 = m[o0 + i] as number;
      const a1 = m[o1 + i] as number;
      const a2 = m[o2 + i] as number;
      const a3 = m[o3 + i] as number;
      const a4 = m[o4 + i] as number;
      const a5 = m[o5 + i] as number;
      const a6 = m[o6 + i] as number;
      const a7 = m[o7 + i] as number;
      const gi = i * l;
      for (let j = i; j < l; j++) {
        g[gi + j] =
          (g[gi + j] as number) +
          a0 * (m[o0 + j] as number) +
          a1 * (m[o1 + j] as number) +
          a2 * (m[o2 + j] as number) +
          a3 * (m[o3 + j] as number) +
          a4 * (m[o4 + j] as number) +
          a5 * (m[o5 + j] as number) +
          a6 * (m[o6 + j] as number) +
          a7 * (m[o7 + j] as number);
      }
    }
  }
  for (; r < n; r++) {
    const o = r * l;
    for (let i = 0; i < l; i++) {
      const a0 = m[o + i] as number;
      const gi = i * l;
      for (let j = i; j < l; j++) g[gi + j] = (g[gi + j] as number) + a0 * (m[o + j] as number);
    }
  }
  return g;
}

function fillLower(g: Float64Array, l: number): void {
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) g[i * l + j] = g[j * l + i] as number;
}

/**
 * X·R⁻¹ for an upper-triangular R, or Xᵀ·R⁻¹ with `transposeFirst` (= (R⁻ᵀ·X)ᵀ, so applying it
 * to H·R⁻¹ gives R⁻ᵀ·H·R⁻¹ for a symmetric H). Solved row by row by forward substitution; a zero
 * pivot gives a zero column (the rank-deficient direction drops out).
 */
function solveRight(x: Float64Array, r: Float64Array, l: number, transposeFirst: boolean): Float64Array {
  const out = new Float64Array(l * l);
  const row = new Float64Array(l);
  for (let i = 0; i < l; i++) {
    for (let j = 0; j < l; j++) row[j] = (transposeFirst ? x[j * l + i] : x[i * l + j]) as number;
    for (let j = 0; j < l; j++) {
      const d = r[j * l + j] as number;
      if (d === 0) {
        out[i * l + j] = 0;
        continue;
      }
      let acc = row[j] as number;
      for (let p = 0; p < j; p++) acc -= (out[i * l + p] as number) * (r[p * l + j] as number);
      out[i * l + j] = acc / d;
    }
  }
  return out;
}

/** X (n × l) · T (l × k), both row-major, as float32; four rows share each pass over T. */
function multiply(x: Float64Array, n: number, l: number, t: Float64Array, k: number): Float32Array {
  const out = new Float32Array(n * k);
  const acc = new Float64Array(4 * k);
  let r = 0;
  for (; r < n; r += 4) {
    const rows = Math.min(4, n - r);
    acc.fill(0);
    for (let i = 0; i < l; i++) {
      const ti = i * k;
      const a0 = x[r * l + i] as number;
      const a1 = rows > 1 ? (x[(r + 1) * l + i] as number) : 0;
      const a2 = rows > 2 ? (x[(r + 2) * l + i] as number) : 0;
      const a3 = rows > 3 ? (x[(r + 3) * l + i] as number) : 0;
      if (a0 === 0 && a1 === 0 && a2 === 0 && a3 === 0) continue;
      for (let c = 0; c < k; c++) {
        const tv = t[ti + c] as number;
        acc[c] = (acc[c] as number) + a0 * tv;
        acc[k + c] = (acc[k + c] as number) + a1 * tv;
        acc[2 * k + c] = (acc[2 * k + c] as number) + a2 * tv;
        acc[3 * k + c] = (acc[3 * k + c] as number) + a3 * tv;
      }
    }
    for (let q = 0; q < rows; q++)
      for (let c = 0; c < k; c++) out[(r + q) * k + c] = acc[q * k + c] as number;
  }
  return out;
}

/** Upper Cholesky factor of the symmetric matrix whose upper triangle is in g; tiny pivots → 0. */
function cholesky(g: Float64Array, l: number): Float64Array {
  const r = new Float64Array(l * l);
  let scale = 0;
  for (let i = 0; i < l; i++) scale = Math.max(scale, g[i * l + i] as number);
  const eps = 1e-13 * (scale || 1);
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

/**
 * Eigen-decomposition of a symmetric n × n matrix (row-major; only the lower triangle is read):
 * Householder reduction to tridiagonal form, then the implicit QL algorithm (`tred2`/`tql2` of
 * EISPACK, as in the public-domain JAMA). O(n³) with a small constant, where cyclic Jacobi (used
 * before) needed ~10 sweeps of column-strided rotations. `vectors` is row-major: column e is the
 * eigenvector of `values[e]`; values are not sorted.
 */
export function symmetricEigen(
  input: Float64Array,
  n: number,
): { values: Float64Array; vectors: Float64Array } {
  const v = Float64Array.from(input);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n === 0) return { values: d, vectors: v };
  tridiagonalize(v, d, e, n);
  // QL rotations touch two eigenvector columns: work on the transpose so they are rows.
  const w = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) w[i * n + k] = v[k * n + i] as number;
  tridiagonalQl(w, d, e, n);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) v[k * n + i] = w[i * n + k] as number;
  return { values: d, vectors: v };
}

/** Householder tridiagonalisation (JAMA `tred2`): v becomes the orthogonal transform, d/e the diagonals. */
function tridiagonalize(v: Float64Array, d: Float64Array, e: Float64Array, n: number): void {
  const at = (i: number, j: number) => v[i * n + j] as number;
  for (let j = 0; j < n; j++) d[j] = at(n - 1, j);
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k] as number);
    if (scale === 0) {
      e[i] = d[i - 1] as number;
      for (let j = 0; j < i; j++) {
        d[j] = at(i - 1, j);
        v[i * n + j] = 0;
        v[j * n + i] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] = (d[k] as number) / scale;
        h += (d[k] as number) ** 2;
      }
      let f = d[i - 1] as number;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j] as number;
        v[j * n + i] = f;
        g = (e[j] as number) + at(j, j) * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += at(k, j) * (d[k] as number);
          e[k] = (e[k] as number) + at(k, j) * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] = (e[j] as number) / h;
        f += (e[j] as number) * (d[j] as number);
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] = (e[j] as number) - hh * (d[j] as number);
      for (let j = 0; j < i; j++) {
        f = d[j] as number;
        g = e[j] as number;
        for (let k = j; k <= i - 1; k++)
          v[k * n + j] = at(k, j) - (f * (e[k] as number) + g * (d[k] as number));
        d[j] = at(i - 1, j);
        v[i * n + j] = 0;
      }
    }
    d[i] = h;
  }
  for (let i = 0; i < n - 1; i++) {
    v[(n - 1) * n + i] = at(i, i);
    v[i * n + i] = 1;
    const h = d[i + 1] as number;
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = at(k, i + 1) / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += at(k, i + 1) * at(k, j);
        for (let k = 0; k <= i; k++) v[k * n + j] = at(k, j) - g * (d[k] as number);
      }
    }
    for (let k = 0; k <= i; k++) v[k * n + i + 1] = 0;
  }
  for (let j = 0; j < n; j++) {
    d[j] = at(n - 1, j);
    v[(n - 1) * n + j] = 0;
  }
  v[(n - 1) * n + n - 1] = 1;
  e[0] = 0;
}

/** Implicit QL on the tridiagonal (d, e) (JAMA `tql2`); w holds the eigenvectors as rows. */
function tridiagonalQl(w: Float64Array, d: Float64Array, e: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i] as number;
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l] as number) + Math.abs(e[l] as number));
    let m = l;
    while (m < n && Math.abs(e[m] as number) > eps * tst1) m++;
    if (m > l) {
      do {
        let g = d[l] as number;
        let p = ((d[l + 1] as number) - g) / (2 * (e[l] as number));
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = (e[l] as number) / (p + r);
        d[l + 1] = (e[l] as number) * (p + r);
        const dl1 = d[l + 1] as number;
        let h = g - (d[l] as number);
        for (let i = l + 2; i < n; i++) d[i] = (d[i] as number) - h;
        f += h;
        p = d[m] as number;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1] as number;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * (e[i] as number);
          h = c * p;
          r = Math.hypot(p, e[i] as number);
          e[i + 1] = s * r;
          s = (e[i] as number) / r;
          c = p / r;
          p = c * (d[i] as number) - s * g;
          d[i + 1] = h + s * (c * g + s * (d[i] as number));
          const a = i * n;
          const b = a + n;
          for (let k = 0; k < n; k++) {
            const wb = w[b + k] as number;
            const wa = w[a + k] as number;
            w[b + k] = s * wa + c * wb;
            w[a + k] = c * wa - s * wb;
          }
        }
        p = (-s * s2 * c3 * el1 * (e[l] as number)) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l] as number) > eps * tst1);
    }
    d[l] = (d[l] as number) + f;
    e[l] = 0;
  }
}

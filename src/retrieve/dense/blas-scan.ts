import { createRequire } from 'node:module';
import { TopK } from '../common/index.js';

/** `cblas_sgemm` / `cblas_sgemv` of an optimised BLAS, loaded through koffi. */
export interface Blas {
  /** Where it was loaded from (`libopenblas.so.0`, …), for benchmark and `--debug` output. */
  readonly library: string;
  sgemm(m: number, n: number, k: number, a: Float32Array, b: Float32Array, c: Float32Array): void;
  sgemv(rows: number, cols: number, a: Float32Array, x: Float32Array, y: Float32Array): void;
}

/**
 * Libraries tried, in order: OpenBLAS under its own names (Debian's `libopenblas0-pthread`), the
 * system `libblas.so.3` when it is OpenBLAS (it exports `openblas_get_config`), and Apple's
 * Accelerate on macOS. The reference netlib BLAS is not used: its unblocked sgemm is slower than
 * usearch's SIMD scan.
 */
const CANDIDATES = [
  'libopenblas.so.0',
  'libopenblas.so',
  'libopenblas.dylib',
  'libblas.so.3',
  '/System/Library/Frameworks/Accelerate.framework/Accelerate',
];

const ROW_MAJOR = 101;
const NO_TRANS = 111;
const TRANS = 112;

let cached: Blas | null | undefined;

/**
 * The optimised BLAS of this machine, or null when none can be loaded (no koffi, no OpenBLAS).
 * Loaded once per process. The same library numpy's matrix product calls, so exact search runs at
 * numpy's speed: a blocked, multi-threaded sgemm that reuses each loaded vector for many queries.
 */
export function loadBlas(): Blas | null {
  if (cached !== undefined) return cached;
  cached = null;
  let koffi: typeof import('koffi');
  try {
    koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
  } catch {
    return cached;
  }
  for (const library of CANDIDATES) {
    try {
      const lib = koffi.load(library);
      if (library === 'libblas.so.3') lib.func('const char *openblas_get_config()');
      const gemm = lib.func(
        'void cblas_sgemm(int, int, int, int, int, int, float, const float *, int, const float *, int, float, _Inout_ float *, int)',
      );
      const gemv = lib.func(
        'void cblas_sgemv(int, int, int, int, float, const float *, int, const float *, int, float, _Inout_ float *, int)',
      );
      cached = {
        library,
        // C (m × n) = A (m × k) · B (n × k)ᵀ, all row-major.
        sgemm: (m, n, k, a, b, c) => gemm(ROW_MAJOR, NO_TRANS, TRANS, m, n, k, 1, a, k, b, k, 0, c, n),
        // y (rows) = A (rows × cols) · x.
        sgemv: (rows, cols, a, x, y) => gemv(ROW_MAJOR, NO_TRANS, rows, cols, 1, a, cols, x, 1, 0, y, 1),
      };
      return cached;
    } catch {
      // not there, or not OpenBLAS: try the next one
    }
  }
  return cached;
}

/** Scores held at once: blocks of rows are scored for all queries, ≤ 8M floats (32 MB). */
const MAX_SCORES = 8_000_000;

/**
 * Exact top-k inner-product search on BLAS: the rows are scored in blocks by one sgemm per block
 * (all queries at once; sgemv for a single query), then each query's scores pass a bounded heap
 * (`TopK`: ties keep the lower row index). Scores are float32 sums in BLAS order, so they can
 * differ from the float64 JS kernel in the 7th digit. Rows with `skip[row]` set (tombstoned) never
 * enter a heap, so the top k are the live rows' top k.
 */
export function blasTopK(
  blas: Blas,
  data: Float32Array,
  dimensions: number,
  queries: readonly Float32Array[],
  k: number,
  maxScores = MAX_SCORES,
  skip: Uint8Array | null = null,
): { index: number; score: number }[][] {
  const d = dimensions;
  const size = data.length / d;
  const nq = queries.length;
  const packed = new Float32Array(nq * d);
  queries.forEach((q, i) => {
    packed.set(q, i * d);
  });
  const block = Math.min(size, Math.max(1, Math.floor(maxScores / Math.max(1, nq))));
  const scores = new Float32Array(nq * block);
  const heaps = queries.map(() => new TopK(Math.min(k, size)));
  for (let start = 0; start < size; start += block) {
    const rows = Math.min(block, size - start);
    const slab = data.subarray(start * d, (start + rows) * d);
    if (nq === 1) blas.sgemv(rows, d, slab, packed, scores);
    else blas.sgemm(nq, rows, d, packed, slab, scores);
    for (let qi = 0; qi < nq; qi++) {
      const heap = heaps[qi] as TopK;
      const off = qi * rows;
      let threshold = heap.threshold;
      for (let r = 0; r < rows; r++) {
        const s = scores[off + r] as number;
        if (s >= threshold && !skip?.[start + r]) {
          heap.push(start + r, s);
          threshold = heap.threshold;
        }
      }
    }
  }
  return heaps.map((h) => h.sorted());
}

/**
 * Candidate paraphrase pairs: every pair of questions whose embeddings have cosine ≥ threshold
 * (0.9 in the released pipeline, `run_pipeline.sh --threshold 0.9`). Up to `exactLimit` questions
 * every pair is compared (blocked, in float64, exact); beyond it an HNSW graph (hnswlib, as the
 * dense retriever uses) finds each question's neighbours, asking for more neighbours while the
 * last one returned is still above the threshold, and every candidate's cosine is recomputed
 * exactly. The benchmark (`npm run bench -- nuggets`) measures time, memory and the ANN's recall
 * against the exact pairs.
 */
import { AnnIndex, type AnnOptions } from '../../retrieve/index.js';

export interface CandidatePair {
  i: number;
  j: number;
  similarity: number;
}

export interface CandidateOptions {
  /** Exact all-pairs up to this many questions (default 3,000). */
  exactLimit?: number;
  ann?: AnnOptions;
}

export const DEFAULT_EXACT_LIMIT = 3000;

/** Rows scaled to unit length in one row-major block (zero rows stay zero). */
export function unitRows(vectors: readonly Float32Array[]): { data: Float64Array; dims: number } {
  const dims = vectors[0]?.length ?? 0;
  const data = new Float64Array(vectors.length * dims);
  vectors.forEach((v, r) => {
    let s = 0;
    for (let k = 0; k < dims; k++) s += v[k]! * v[k]!;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let k = 0; k < dims; k++) data[r * dims + k] = v[k]! * inv;
  });
  return { data, dims };
}

function cosine(data: Float64Array, dims: number, a: number, b: number): number {
  let s = 0;
  const oa = a * dims;
  const ob = b * dims;
  for (let k = 0; k < dims; k++) s += data[oa + k]! * data[ob + k]!;
  return s;
}

/** Pairs (i < j) sorted by i then j, with cosine ≥ threshold. */
export function candidatePairs(
  vectors: readonly Float32Array[],
  threshold: number,
  options: CandidateOptions = {},
): { pairs: CandidatePair[]; method: 'exact' | 'ann' } {
  const n = vectors.length;
  const { data, dims } = unitRows(vectors);
  const exact = n <= (options.exactLimit ?? DEFAULT_EXACT_LIMIT);
  const pairs = exact
    ? exactPairs(data, dims, n, threshold)
    : annPairs(data, dims, n, threshold, options.ann);
  return { pairs: pairs.sort((a, b) => a.i - b.i || a.j - b.j), method: exact ? 'exact' : 'ann' };
}

/** All pairs, in blocks of rows so a block of the matrix stays in cache. */
function exactPairs(data: Float64Array, dims: number, n: number, threshold: number): CandidatePair[] {
  const out: CandidatePair[] = [];
  const BLOCK = 64;
  for (let bi = 0; bi < n; bi += BLOCK) {
    for (let bj = bi; bj < n; bj += BLOCK) {
      const iEnd = Math.min(n, bi + BLOCK);
      const jEnd = Math.min(n, bj + BLOCK);
      for (let i = bi; i < iEnd; i++) {
        for (let j = Math.max(bj, i + 1); j < jEnd; j++) {
          const s = cosine(data, dims, i, j);
          if (s >= threshold) out.push({ i, j, similarity: s });
        }
      }
    }
  }
  return out;
}

function annPairs(
  data: Float64Array,
  dims: number,
  n: number,
  threshold: number,
  ann: AnnOptions = {},
): CandidatePair[] {
  const index = new AnnIndex(Float32Array.from(data), dims, ann);
  const seen = new Set<number>();
  const out: CandidatePair[] = [];
  for (let i = 0; i < n; i++) {
    const query = Float32Array.from(data.subarray(i * dims, (i + 1) * dims));
    let k = 16;
    let hits = index.search([query], k)[0]!;
    // While the k-th neighbour still passes, the query may have more: ask for twice as many.
    while (hits.length === k && k < n && hits[k - 1]!.score >= threshold - 1e-6) {
      k = Math.min(n, k * 2);
      hits = index.search([query], k)[0]!;
    }
    for (const h of hits) {
      if (h.index === i) continue;
      const [a, b] = h.index < i ? [h.index, i] : [i, h.index];
      const key = a * n + b;
      if (seen.has(key)) continue;
      const s = cosine(data, dims, a, b);
      if (s >= threshold) {
        seen.add(key);
        out.push({ i: a, j: b, similarity: s });
      }
    }
  }
  return out;
}

import { exactSearch, MetricKind } from 'usearch';
import { CitegeistError } from '../../core/index.js';
import { TopK } from '../common/index.js';
import { type Blas, blasTopK, loadBlas } from './blas-scan.js';
import { blockedTopK } from './blocked-scan.js';

export interface VectorHit {
  index: number;
  score: number;
}

/** Nearest-neighbour search by inner product (= cosine on normalised vectors). */
export interface VectorSearch {
  readonly size: number;
  readonly dimensions: number;
  search(queries: readonly Float32Array[], k: number): VectorHit[][];
}

/** Scales each row of a row-major matrix to unit length (zero rows stay zero). */
export function normalizeRows(data: Float32Array, dimensions: number): Float32Array {
  for (let off = 0; off < data.length; off += dimensions) {
    let s = 0;
    for (let j = 0; j < dimensions; j++) s += (data[off + j] as number) ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < dimensions; j++) data[off + j] = (data[off + j] as number) * inv;
  }
  return data;
}

export type ExactKernel = 'auto' | 'blas' | 'native' | 'js';

/** Query × row scores one native scan may hold (as `blasTopK` bounds its score block). */
export const NATIVE_MAX_SCORES = 8_000_000;

/**
 * Exact inner-product search over one row-major Float32Array, queries batched. Three kernels
 * return the same top-k lists (checked in `npm run bench -- dense`), sorted by score with ties by
 * the lower row index: `blas` (OpenBLAS sgemm/sgemv through koffi, the kernel numpy's `Q @ X.T`
 * runs), `native` (usearch's SIMD pairwise scan) and `js` (`blockedTopK`, pure JS).
 */
export class ExactIndex implements VectorSearch {
  readonly size: number;
  /** The kernel that runs (`auto` resolved: `blas` when OpenBLAS loads, else `native`). */
  readonly kernel: Exclude<ExactKernel, 'auto'>;
  private readonly blas: Blas | null;

  constructor(
    readonly data: Float32Array,
    readonly dimensions: number,
    kernel: ExactKernel = 'auto',
  ) {
    if (dimensions <= 0 || data.length % dimensions !== 0) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `A vector block of ${data.length} floats is not a whole number of ${dimensions}-d rows.`,
        'Check the embedder dimensions.',
      );
    }
    this.size = data.length / dimensions;
    this.blas = kernel === 'auto' || kernel === 'blas' ? loadBlas() : null;
    if (kernel === 'blas' && !this.blas) {
      throw new CitegeistError(
        'OPTIONAL_DEPENDENCY',
        'The BLAS kernel was asked for, but no OpenBLAS library could be loaded (libopenblas.so.0).',
        'Install OpenBLAS (Debian: `apt-get install libopenblas0-pthread`), or use the native kernel.',
      );
    }
    this.kernel = kernel === 'auto' ? (this.blas ? 'blas' : 'native') : kernel;
  }

  search(queries: readonly Float32Array[], k: number): VectorHit[][] {
    for (const q of queries) this.checkQuery(q);
    if (this.size === 0 || k <= 0) return queries.map(() => []);
    if (this.kernel === 'blas' && this.blas)
      return blasTopK(this.blas, this.data, this.dimensions, queries, k);
    return this.kernel === 'native' ? this.searchNative(queries, k) : this.searchBlocked(queries, k);
  }

  /**
   * usearch's exact scan, over blocks of rows so that a batch never holds more than
   * `NATIVE_MAX_SCORES` query × row scores (a 1,000-query batch at 697k rows needed 12 GB in one
   * call); each block's top k is merged into one bounded heap per query.
   */
  private searchNative(queries: readonly Float32Array[], k: number): VectorHit[][] {
    const d = this.dimensions;
    const flat = new Float32Array(queries.length * d);
    queries.forEach((q, i) => {
      flat.set(q, i * d);
    });
    const block = Math.max(1, Math.floor(NATIVE_MAX_SCORES / Math.max(1, queries.length)));
    if (block >= this.size) return this.nativeBlock(this.data, flat, queries.length, k);
    const heaps = queries.map(() => new TopK(Math.min(k, this.size)));
    for (let start = 0; start < this.size; start += block) {
      const rows = Math.min(block, this.size - start);
      const part = this.nativeBlock(
        this.data.subarray(start * d, (start + rows) * d),
        flat,
        queries.length,
        k,
      );
      part.forEach((hits, qi) => {
        for (const h of hits) heaps[qi]!.push(start + h.index, h.score);
      });
    }
    return heaps.map((h) => h.sorted());
  }

  private nativeBlock(data: Float32Array, flat: Float32Array, nq: number, k: number): VectorHit[][] {
    const d = this.dimensions;
    const count = Math.min(k, data.length / d);
    const result = exactSearch(data, flat, d, count, MetricKind.IP, 0);
    const keys = result.keys;
    const dist = result.distances;
    const counts = 'counts' in result ? result.counts : null;
    return Array.from({ length: nq }, (_, qi) => {
      const n = counts ? Number(counts[qi]) : keys.length;
      const hits: VectorHit[] = [];
      for (let j = 0; j < n; j++) {
        const at = counts ? qi * count + j : j;
        // usearch reports inner-product distance as 1 − dot.
        hits.push({ index: Number(keys[at]), score: 1 - (dist[at] as number) });
      }
      return hits.sort((a, b) => b.score - a.score || a.index - b.index);
    });
  }

  /** The pure-JS kernel: blocked matrix multiply with per-query bounded heaps (`blockedTopK`). */
  searchBlocked(queries: readonly Float32Array[], k: number): VectorHit[][] {
    return blockedTopK(this.data, this.dimensions, queries, k);
  }

  /** One query at a time with no blocking: the baseline the benchmark compares against. */
  searchNaive(query: Float32Array, k: number): VectorHit[] {
    this.checkQuery(query);
    const { data, dimensions: d } = this;
    const top = new TopK(Math.min(k, this.size));
    for (let i = 0, off = 0; i < this.size; i++, off += d) {
      let s = 0;
      for (let j = 0; j < d; j++) s += (data[off + j] as number) * (query[j] as number);
      top.push(i, s);
    }
    return top.sorted();
  }

  private checkQuery(q: Float32Array): void {
    if (q.length !== this.dimensions) {
      throw new CitegeistError(
        'INDEX_EMBEDDER_MISMATCH',
        `A ${q.length}-d query was sent to a ${this.dimensions}-d index.`,
        'Embed queries with the embedder the index was built with.',
      );
    }
  }
}

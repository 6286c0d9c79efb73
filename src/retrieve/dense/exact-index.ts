import { CitegeistError } from '../../core/index.js';
import { TopK } from '../common/index.js';
import { type Blas, blasTopK, loadBlas } from './blas-scan.js';
import { blockedTopK } from './blocked-scan.js';
import { loadUsearch, type Usearch } from './usearch-scan.js';

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
 * runs), `native` (usearch's SIMD pairwise scan; usearch is an optional dependency) and `js`
 * (`blockedTopK`, pure JS). `auto` takes the first of them that loads.
 */
export class ExactIndex implements VectorSearch {
  readonly size: number;
  /** The kernel that runs (`auto` resolved: `blas` when OpenBLAS loads, else `native` when usearch does, else `js`). */
  readonly kernel: Exclude<ExactKernel, 'auto'>;
  private readonly blas: Blas | null;
  private readonly usearch: Usearch | null;

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
    this.usearch = (kernel === 'auto' && !this.blas) || kernel === 'native' ? loadUsearch() : null;
    if (kernel === 'native' && !this.usearch) {
      throw new CitegeistError(
        'OPTIONAL_DEPENDENCY',
        'The native kernel was asked for, but usearch is not installed (npm skips it on Node 20: it needs Node 22).',
        'Use Node 22 and `npm install usearch`, or the blas or js kernel.',
      );
    }
    this.kernel = kernel === 'auto' ? (this.blas ? 'blas' : this.usearch ? 'native' : 'js') : kernel;
  }

  /**
   * The top k rows of each query. Rows with `skip[row]` set (tombstoned: a paper removed or
   * replaced) are passed over inside the scan, never returned, so the result is the top k of the
   * live rows whatever their share, with each row's score as an index without them computes it.
   */
  search(queries: readonly Float32Array[], k: number, skip: Uint8Array | null = null): VectorHit[][] {
    for (const q of queries) this.checkQuery(q);
    if (this.size === 0 || k <= 0) return queries.map(() => []);
    if (this.kernel === 'blas' && this.blas)
      return blasTopK(this.blas, this.data, this.dimensions, queries, k, undefined, skip);
    return this.kernel === 'native' && this.usearch
      ? this.searchNative(this.usearch, queries, k, skip)
      : this.searchBlocked(queries, k, skip);
  }

  /**
   * usearch's exact scan, over blocks of rows so that a batch never holds more than
   * `NATIVE_MAX_SCORES` query × row scores (a 1,000-query batch at 697k rows needed 12 GB in one
   * call); each block's top k is merged into one bounded heap per query.
   */
  private searchNative(
    usearch: Usearch,
    queries: readonly Float32Array[],
    k: number,
    skip: Uint8Array | null,
  ): VectorHit[][] {
    const d = this.dimensions;
    const flat = new Float32Array(queries.length * d);
    queries.forEach((q, i) => {
      flat.set(q, i * d);
    });
    const block = Math.max(1, Math.floor(NATIVE_MAX_SCORES / Math.max(1, queries.length)));
    if (block >= this.size && !skip) return this.nativeBlock(usearch, this.data, flat, queries.length, k);
    const heaps = queries.map(() => new TopK(Math.min(k, this.size)));
    for (let start = 0; start < this.size; start += block) {
      const end = Math.min(this.size, start + block);
      // usearch's exact scan takes no filter: it scans each run of live rows (a paper's rows are
      // contiguous, so tombstones cut few runs), each for its own top k.
      for (const [from, to] of liveRuns(skip, start, end)) {
        const part = this.nativeBlock(usearch, this.data.subarray(from * d, to * d), flat, queries.length, k);
        part.forEach((hits, qi) => {
          for (const h of hits) heaps[qi]!.push(from + h.index, h.score);
        });
      }
    }
    return heaps.map((h) => h.sorted());
  }

  private nativeBlock(
    usearch: Usearch,
    data: Float32Array,
    flat: Float32Array,
    nq: number,
    k: number,
  ): VectorHit[][] {
    const d = this.dimensions;
    const count = Math.min(k, data.length / d);
    const result = usearch.exactSearch(data, flat, d, count, usearch.MetricKind.IP, 0);
    const keys = result.keys;
    const dist = result.distances;
    const counts = result.counts ?? null;
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
  searchBlocked(queries: readonly Float32Array[], k: number, skip: Uint8Array | null = null): VectorHit[][] {
    return blockedTopK(this.data, this.dimensions, queries, k, skip);
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

/** The runs [from, to) of rows in start..end−1 whose `skip` byte is 0 (one run without a mask). */
function* liveRuns(skip: Uint8Array | null, start: number, end: number): Generator<[number, number]> {
  if (!skip) {
    yield [start, end];
    return;
  }
  let row = start;
  while (row < end) {
    while (row < end && skip[row]) row++;
    const from = row;
    while (row < end && !skip[row]) row++;
    if (row > from) yield [from, row];
  }
}

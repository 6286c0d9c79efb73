import hnswlib from 'hnswlib-node';
import type { VectorHit, VectorSearch } from './exact-index.js';

/**
 * HNSW parameters used by the product and the benchmark. efConstruction 32 (was 64) halves the
 * build time; on clustered vectors recall@10 stays high (see docs/retrieval.md).
 */
export const ANN_DEFAULTS = { m: 16, efConstruction: 32, efSearch: 64 } as const;

export interface AnnOptions {
  /** Graph degree (HNSW M). */
  m?: number;
  efConstruction?: number;
  efSearch?: number;
}

/**
 * Approximate inner-product search with hnswlib-node's HNSW. Chosen over usearch by
 * `bench/dense.bench.ts` (same recall@10, faster build and ~5× faster single queries here; see
 * docs/retrieval.md). hnswlib takes plain arrays, so rows are copied once when added.
 */
export class AnnIndex implements VectorSearch {
  readonly size: number;
  private readonly index: InstanceType<typeof hnswlib.HierarchicalNSW>;

  constructor(
    data: Float32Array,
    readonly dimensions: number,
    options: AnnOptions = {},
  ) {
    this.size = data.length / dimensions;
    this.index = new hnswlib.HierarchicalNSW('ip', dimensions);
    this.index.initIndex({
      maxElements: Math.max(1, this.size),
      m: options.m ?? ANN_DEFAULTS.m,
      efConstruction: options.efConstruction ?? ANN_DEFAULTS.efConstruction,
      randomSeed: 100,
    });
    // hnswlib wants a plain number[] per point: one reused array, refilled per row.
    const row = new Array<number>(dimensions).fill(0);
    for (let i = 0, off = 0; i < this.size; i++, off += dimensions) {
      for (let j = 0; j < dimensions; j++) row[j] = data[off + j] as number;
      this.index.addPoint(row, i);
    }
    this.index.setEf(options.efSearch ?? ANN_DEFAULTS.efSearch);
  }

  search(queries: readonly Float32Array[], k: number): VectorHit[][] {
    if (this.size === 0 || k <= 0) return queries.map(() => []);
    const count = Math.min(k, this.size);
    return queries.map((q) => {
      const { neighbors, distances } = this.index.searchKnn(Array.from(q), count);
      // hnswlib reports inner-product distance as 1 − dot.
      return neighbors
        .map((index, j) => ({ index, score: 1 - (distances[j] as number) }))
        .sort((a, b) => b.score - a.score || a.index - b.index);
    });
  }
}

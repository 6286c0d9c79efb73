import hnswlib from 'hnswlib-node';
import type { VectorHit, VectorSearch } from './exact-index.js';

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
      m: options.m ?? 16,
      efConstruction: options.efConstruction ?? 64,
      randomSeed: 100,
    });
    for (let i = 0; i < this.size; i++)
      this.index.addPoint(Array.from(data.subarray(i * dimensions, (i + 1) * dimensions)), i);
    this.index.setEf(options.efSearch ?? 64);
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

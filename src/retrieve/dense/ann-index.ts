import { Index, MetricKind, ScalarKind } from 'usearch';
import type { VectorHit, VectorSearch } from './exact-index.js';

export interface AnnOptions {
  /** Graph degree (HNSW M). */
  connectivity?: number;
  expansionAdd?: number;
  expansionSearch?: number;
}

/**
 * Approximate inner-product search with usearch's HNSW (chosen over hnswlib-node by the benchmark:
 * typed-array input, multi-threaded batch add and search; see docs/retrieval.md).
 */
export class AnnIndex implements VectorSearch {
  readonly size: number;
  private readonly index: Index;

  constructor(
    data: Float32Array,
    readonly dimensions: number,
    options: AnnOptions = {},
  ) {
    this.size = data.length / dimensions;
    this.index = new Index({
      dimensions,
      metric: MetricKind.IP,
      quantization: ScalarKind.F32,
      connectivity: options.connectivity ?? 16,
      expansion_add: options.expansionAdd ?? 64,
      expansion_search: options.expansionSearch ?? 64,
      multi: false,
    });
    if (this.size > 0) {
      const keys = new BigUint64Array(this.size);
      for (let i = 0; i < this.size; i++) keys[i] = BigInt(i);
      const rows: Float32Array[] = [];
      for (let i = 0; i < this.size; i++) rows.push(data.subarray(i * dimensions, (i + 1) * dimensions));
      this.index.add(keys, rows, 0);
    }
  }

  search(queries: readonly Float32Array[], k: number): VectorHit[][] {
    if (this.size === 0 || k <= 0) return queries.map(() => []);
    const count = Math.min(k, this.size);
    return queries.map((q) => {
      const m = this.index.search(q, count, 0);
      const hits: VectorHit[] = [];
      for (let j = 0; j < m.keys.length; j++) {
        hits.push({ index: Number(m.keys[j]), score: 1 - (m.distances[j] as number) });
      }
      return hits;
    });
  }
}

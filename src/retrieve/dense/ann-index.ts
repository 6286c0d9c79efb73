import hnswlib from 'hnswlib-node';
import { CitegeistError } from '../../core/index.js';
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
 * What a graph is made from: a row-major matrix (labels 0…n−1), `capacity` for an empty graph
 * that rows are `add`ed to with labels of the caller's choosing, or a `file` written by `write`.
 */
export type AnnSource = Float32Array | { capacity: number } | { file: string };

/**
 * Approximate inner-product search with hnswlib-node's HNSW. Chosen over usearch by
 * `bench/dense.bench.ts` (same recall@10, faster build and ~5× faster single queries here; see
 * docs/retrieval.md). hnswlib takes plain arrays, so rows are copied once when added. A hit's
 * `index` is the label its row was added with.
 */
export class AnnIndex implements VectorSearch {
  private count = 0;
  private ef: number;
  private readonly index: InstanceType<typeof hnswlib.HierarchicalNSW>;
  // hnswlib wants a plain number[] per point: one reused array, refilled per row.
  private readonly row: number[];

  constructor(
    source: AnnSource,
    readonly dimensions: number,
    options: AnnOptions = {},
  ) {
    this.index = new hnswlib.HierarchicalNSW('ip', dimensions);
    this.row = new Array<number>(dimensions).fill(0);
    this.ef = options.efSearch ?? ANN_DEFAULTS.efSearch;
    if ('file' in source) {
      try {
        this.index.readIndexSync(source.file);
      } catch (error) {
        throw new CitegeistError(
          'INDEX_CORRUPT',
          `The ANN graph ${source.file} cannot be read.`,
          'Build it again with `citegeist index --ann --rebuild`.',
          { cause: error },
        );
      }
      this.count = this.index.getCurrentCount();
    } else {
      const rows = source instanceof Float32Array ? source.length / dimensions : 0;
      this.index.initIndex({
        maxElements: Math.max(1, source instanceof Float32Array ? rows : source.capacity),
        m: options.m ?? ANN_DEFAULTS.m,
        efConstruction: options.efConstruction ?? ANN_DEFAULTS.efConstruction,
        randomSeed: 100,
      });
      if (source instanceof Float32Array) {
        for (let i = 0; i < rows; i++) this.add(source.subarray(i * dimensions, (i + 1) * dimensions), i);
      }
    }
    this.index.setEf(this.ef);
  }

  /** Points in the graph. */
  get size(): number {
    return this.count;
  }

  /** The search breadth (HNSW ef): larger finds more of the true neighbours, more slowly. */
  get efSearch(): number {
    return this.ef;
  }

  set efSearch(ef: number) {
    this.ef = ef;
    this.index.setEf(ef);
  }

  /** Adds one (normalised) vector under `label`. */
  add(vector: Float32Array, label: number): void {
    for (let j = 0; j < this.dimensions; j++) this.row[j] = vector[j] as number;
    this.index.addPoint(this.row, label);
    this.count++;
  }

  /** Writes the graph (vectors included) to `path`, which `new AnnIndex({ file })` reads. */
  write(path: string): void {
    this.index.writeIndexSync(path);
  }

  /** The top k of each query; with `skip`, labels whose entry is non-zero are never returned. */
  search(queries: readonly Float32Array[], k: number, skip?: Uint8Array | null): VectorHit[][] {
    if (this.count === 0 || k <= 0) return queries.map(() => []);
    const count = Math.min(k, this.count);
    const filter = skip ? (label: number) => !skip[label] : undefined;
    return queries.map((q) => {
      const { neighbors, distances } = this.index.searchKnn(Array.from(q), count, filter);
      // hnswlib reports inner-product distance as 1 − dot.
      return neighbors
        .map((index, j) => ({ index, score: 1 - (distances[j] as number) }))
        .sort((a, b) => b.score - a.score || a.index - b.index);
    });
  }
}

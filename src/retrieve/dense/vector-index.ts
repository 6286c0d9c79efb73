/**
 * What retrievers need of a dense index: `DenseIndex` (in memory) and `DiskDenseIndex` (read from
 * an index folder by pages) both provide it.
 */
export interface VectorIndex {
  readonly embedderId: string;
  readonly dimensions: number;
  readonly kind: 'exact' | 'ann';
  search(queries: readonly Float32Array[], k: number): { index: number; id: string; score: number }[][];
  scoreIds(query: Float32Array, ids: readonly string[]): { index: number; id: string; score: number }[];
}

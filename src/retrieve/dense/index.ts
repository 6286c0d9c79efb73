export { ANN_DEFAULTS, AnnIndex, type AnnOptions } from './ann-index.js';
export { type Blas, blasTopK, loadBlas } from './blas-scan.js';
export { DENSE_FILES, DenseFileWriter, DiskDenseIndex } from './dense-file.js';
export { ANN_THRESHOLD, DenseIndex, type DenseMode } from './dense-index.js';
export { DenseRetriever } from './dense-retriever.js';
export {
  ExactIndex,
  type ExactKernel,
  normalizeRows,
  type VectorHit,
  type VectorSearch,
} from './exact-index.js';
export type { VectorIndex } from './vector-index.js';

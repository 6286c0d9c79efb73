export {
  ANN_EF_CAP,
  ANN_FILE,
  ANN_INDEX_DEFAULTS,
  ANN_RECALL_QUERIES,
  ANN_RECALL_TARGET,
  type AnnBuildOptions,
  type AnnReport,
  buildAnnGraph,
  describeAnn,
} from './ann-build.js';
export { ANN_DEFAULTS, AnnIndex, type AnnOptions, type AnnSource } from './ann-index.js';
export { type Blas, blasTopK, loadBlas } from './blas-scan.js';
export { type AnnGraphFile, DENSE_FILES, DenseFileWriter, DiskDenseIndex } from './dense-file.js';
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

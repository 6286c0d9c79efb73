export { ANN_DEFAULTS, AnnIndex, type AnnOptions } from './ann-index.js';
export { ANN_THRESHOLD, DenseIndex, type DenseMode } from './dense-index.js';
export { ExactIndex, normalizeRows, type VectorHit, type VectorSearch } from './exact-index.js';

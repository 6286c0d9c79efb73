export { type BuildIndexOptions, buildIndex, type IndexedDocument } from './build-index.js';
export {
  type IndexManifest,
  indexExists,
  loadEmbedderModel,
  loadIndex,
  openDense,
  readManifest,
  type SavedIndex,
  saveIndex,
} from './index-dir.js';
export { assertIndexFresh, describeStaleness, type IndexStaleness, indexStaleness } from './staleness.js';

export { type BuildIndexOptions, buildIndex, type IndexedDocument } from './build-index.js';
export {
  checkIndex,
  DEFAULT_PASSAGE_TOKENS,
  type IndexableCorpus,
  type IndexCheck,
  type IndexCorpusOptions,
  type IndexCorpusResult,
  type IndexSettings,
  indexCorpus,
} from './index-corpus.js';
export {
  type IndexManifest,
  indexDirFor,
  indexExists,
  loadEmbedderModel,
  loadIndex,
  openDense,
  readManifest,
  type SavedIndex,
  saveIndex,
} from './index-dir.js';
export { assertIndexFresh, describeStaleness, type IndexStaleness, indexStaleness } from './staleness.js';

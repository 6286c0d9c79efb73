export {
  type BuildIndexOptions,
  FIT_SAMPLE,
  type IndexedDocument,
  type IndexUpdate,
  type UpdateIndexOptions,
  updateIndex,
  writeIndex,
} from './build-index.js';
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
  assertCurrentFormat,
  INDEX_FORMAT,
  type IndexManifest,
  indexDirFor,
  indexExists,
  loadEmbedderModel,
  loadIndex,
  loadPassages,
  MANIFEST_FILE,
  openDense,
  partFolder,
  readManifest,
  type SavedIndex,
} from './index-dir.js';
export { type IndexPapers, indexedDigests, PAPER_FILES, readIndexPapers } from './index-papers.js';
export { PASSAGE_FILES, PassageTable } from './passage-table.js';
export { restoreEmbedder } from './restore-embedder.js';
export {
  assertIndexFresh,
  type CorpusState,
  corpusStaleness,
  describeStaleness,
  type IndexStaleness,
  indexedPapers,
  indexStaleness,
} from './staleness.js';

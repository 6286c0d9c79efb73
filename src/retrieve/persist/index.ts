export {
  DEFAULT_PASSAGE_TOKENS,
  defaultIndexWorkers,
  type IndexableCorpus,
  type IndexCorpusOptions,
  type IndexCorpusResult,
  indexCorpus,
  PARALLEL_MIN_PAPERS,
} from './index-corpus.js';
export {
  INDEX_FORMAT,
  type IndexManifest,
  indexDirFor,
  indexExists,
  loadEmbedderModel,
  loadIndex,
  openDense,
  readManifest,
  type SavedIndex,
} from './index-dir.js';
export type { IndexPapers } from './index-papers.js';
export { PassageTable } from './passage-table.js';
export { restoreEmbedder } from './restore-embedder.js';
export {
  assertIndexFresh,
  type CorpusState,
  corpusStaleness,
  describeStaleness,
  type IndexStaleness,
} from './staleness.js';

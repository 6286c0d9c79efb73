/** store/: the SQLite corpus of a workspace and loading papers by file, id or folder. */
export { CORPUS_SCHEMA_VERSION } from './corpus-schema.js';
export {
  CorpusStore,
  type DocumentSummary,
  type MatchingText,
  type StoredFile,
} from './corpus-store.js';
export {
  contentHash,
  expandPaths,
  findIngestFiles,
  type IngestFiles,
  type IngestOptions,
  type IngestOutcome,
  type IngestSummary,
  ingestFile,
  ingestPaths,
} from './ingest-files.js';
export {
  DEFAULT_CORPUS_PATH,
  defaultCorpusPath,
  findPaperFile,
  type LoadOptions,
  loadDocument,
  PAPERS_CACHE_PATH,
  PapersDir,
  type PapersDirOptions,
} from './load-document.js';
export { openCorpus, requireCorpus } from './open-corpus.js';
export {
  checkSource,
  describeSource,
  type GradingPapers,
  loadGradingPapers,
  type PaperSourceOptions,
  paperSource,
  sourceFlags,
} from './paper-source.js';
export { PapersCache } from './papers-cache.js';

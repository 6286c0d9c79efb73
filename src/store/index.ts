/** store/: the SQLite corpus of a workspace and loading papers by file, id or folder. */
export { CORPUS_SCHEMA_VERSION } from './corpus-schema.js';
export { CorpusStore, type DocumentSummary, type StoredFile } from './corpus-store.js';
export {
  contentHash,
  expandPaths,
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
  PapersDir,
} from './load-document.js';

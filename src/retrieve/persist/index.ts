export {
  type BuildIndexOptions,
  FIT_SAMPLE,
  type IndexedDocument,
  writeIndex,
} from './build-index.js';
export {
  assertCurrentFormat,
  INDEX_FORMAT,
  type IndexManifest,
  indexExists,
  loadEmbedderModel,
  loadIndex,
  loadPassages,
  MANIFEST_FILE,
  openDense,
  readManifest,
  type SavedIndex,
} from './index-dir.js';
export { PASSAGE_FILES, PassageTable } from './passage-table.js';
export { assertIndexFresh, describeStaleness, type IndexStaleness, indexStaleness } from './staleness.js';

/** formats/: interchange formats read and written byte for byte — TREC runs and qrels, nugget banks, report runs and requests. */
export { compareBytes } from './byte-order.js';
export { type DatasetIndex, indexDataset, loadDatasetIndex, rowRef } from './dataset-index.js';
export {
  type DatasetMeta,
  type DatasetReadResult,
  type DatasetRowError,
  datasetMeta,
  formatDatasetJsonl,
  formatEvalDatasetJson,
  readDataset,
  readDatasetStrict,
  writeDataset,
} from './dataset-io.js';
export { type DatasetLayout, toPublishedRow } from './dataset-layouts.js';
export { loadDataset, loadDatasetStrict, readParquetDataset } from './dataset-parquet.js';
export * from './nugget-bank.js';
export * from './nugget-bank-io.js';
export * from './nugget-formats.js';
export * from './nugget-merge.js';
export * from './report-length.js';
export * from './report-request.js';
export * from './report-run.js';
export { indexRun, type RunIndex } from './run-index.js';
export { type RunReadResult, readRun } from './run-io.js';
export {
  contentLines,
  expectFields,
  formatRun,
  malformed,
  parseCDouble,
  parseGrade,
  parseQrels,
  parseRun,
  pushTo,
  type Qrels,
  type QrelsEntry,
  type RankedResult,
  type Run,
  type RunEntry,
  sortedTopics,
} from './trec-files.js';

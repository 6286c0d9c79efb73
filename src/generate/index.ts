export {
  type CheckedDataset,
  type CheckOptions,
  checkDataset,
  DATASET_CHECK_VERSION,
  type DatasetCheck,
  type DatasetProblem,
  type DatasetProblemKind,
  formatDatasetProblems,
} from './check-dataset.js';
export {
  type CheckCache,
  checkCacheFile,
  checkReadDataset,
  DATASET_CHECKS_DIR,
  keepCheck,
  readKeptCheck,
  type WarnLine,
  warnMissingFields,
} from './dataset-preflight.js';
export { type MarkdownSection, markdownSections, sectionLabelAt } from './markdown-sections.js';
export * from './nuggets/index.js';
export * from './openalex/index.js';
export { importQasper, type QasperImportResult } from './qasper-dataset.js';
export {
  floatLabel,
  type QasperAnnotation,
  type QasperQuestion,
  qasperAnswerText,
  qasperQuestionToRow,
  type SectionLocator,
} from './qasper-import.js';
export * from './researchqa/index.js';

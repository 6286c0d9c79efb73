export {
  EXPECTED_GENERATION_TOKENS,
  estimateGeneration,
  type GenerationEstimate,
} from './estimate-generation.js';
export {
  changedPapers,
  type GenerateDatasetOptions,
  type GenerateDatasetResult,
  generateDataset,
  progressFileOptions,
  progressPath,
  questionsManifest,
} from './generate-dataset.js';
export {
  type DropReason,
  failingQuotes,
  type GenerateOptions,
  generatePaperQuestions,
  generationMessages,
  maxPaperChars,
  type PaperGeneration,
  rowsFromGeneration,
} from './generate-questions.js';
export { GENERATION_PROMPT, type Generation, GenerationSchema, RepairSchema } from './generation-schema.js';
export { type PaperList, paperList } from './paper-list.js';

export {
  type GenerateDatasetOptions,
  type GenerateDatasetResult,
  generateDataset,
  progressPath,
} from './generate-dataset.js';
export {
  type DropReason,
  failingQuotes,
  type GenerateOptions,
  generatePaperQuestions,
  type PaperGeneration,
  rowsFromGeneration,
} from './generate-questions.js';
export { GENERATION_PROMPT, type Generation, GenerationSchema, RepairSchema } from './generation-schema.js';

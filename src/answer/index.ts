export {
  type Answerer,
  type AnswerInput,
  type AnswerOutcome,
  type ContextMode,
  failedOutcome,
} from './answerer.js';
export { answerUserPrompt, BASELINE_PROMPT, CITATION_CONTRACT } from './contract-prompt.js';
export {
  markerKeys,
  type ParsedReply,
  parseEvidenceReply,
  stripMarkers,
  stripQuoteMarks,
} from './evidence-parser.js';
export { EXTRACTIVE_REFUSAL, ExtractiveAnswerer, type ExtractiveOptions } from './extractive-answerer.js';
export {
  compactRunFile,
  type HarnessOptions,
  type HarnessProgress,
  type HarnessResult,
  runAnswers,
  runRowOf,
} from './harness.js';
export { LlmAnswerer, type LlmAnswererOptions } from './llm-answerer.js';
export { PaperContext, type PaperRetrieval } from './paper-context.js';
export { isRefusal, type QasperPredictionLine, qasperPrediction } from './qasper-predictions.js';

export {
  answerOpened,
  estimateAnswering,
  type OpenAnsweringOptions,
  type OpenedAnswering,
  openAnswering,
  writeQasperPredictions,
} from './answer-dataset.js';
export { answerManifest } from './answer-manifest.js';
export {
  type Answerer,
  type AnswerInput,
  type AnswerOutcome,
  type ContextMode,
  failedOutcome,
} from './answerer.js';
export {
  answerUserPrompt,
  BASELINE_PROMPT,
  CITATION_CONTRACT,
  FREE_TEXT_PROMPT,
  freeTextUserPrompt,
} from './contract-prompt.js';
export { type AnswerEstimate, estimateAnswers, estimateRunFile } from './estimate.js';
export {
  markerKeys,
  type ParsedReply,
  parseEvidenceReply,
  stripMarkers,
  stripQuoteMarks,
} from './evidence-parser.js';
export { EXTRACTIVE_REFUSAL, ExtractiveAnswerer, type ExtractiveOptions } from './extractive-answerer.js';
export { generateReportRun } from './generate-report-run.js';
export {
  type HarnessOptions,
  type HarnessProgress,
  type HarnessResult,
  inspectRunFileFor,
  type RunTarget,
  runAnswers,
  runFileOptions,
  runRowOf,
} from './harness.js';
export { LeadAnswerer, type LeadOptions } from './lead-answerer.js';
export { AnswerPlanner, LlmAnswerer, type LlmAnswererOptions } from './llm-answerer.js';
export {
  type OpenPaperRetrievalOptions,
  openPaperRetrieval,
  type PaperRetrievalSetup,
} from './open-paper-retrieval.js';
export { PaperContext, type PaperRetrieval } from './paper-context.js';
export {
  type ContextPassage,
  corpusPassages,
  indexedPassageText,
  type PassageSource,
  paperPassages,
} from './passage-source.js';
export { isRefusal, type QasperPredictionLine, qasperPrediction } from './qasper-predictions.js';
export {
  ExtractiveReportWriter,
  LlmReportWriter,
  type ReportDraft,
  type ReportSentenceDraft,
  type ReportWriter,
  type ReportWriterInput,
  type RetrievalContext,
  reportPrompt,
  reportRunLine,
  retrievedPassages,
} from './report-generator.js';
export {
  DEFAULT_REPORT_K,
  DEFAULT_REPORT_LIMIT,
  openReportRun,
  pendingRequests,
  type ReportRunResult,
  type ReportRunSettings,
  reportRunManifest,
  reportTopicOf,
  type WriteReportRunOptions,
  writeReportRun,
} from './report-run.js';
export { runPassages } from './run-passages.js';

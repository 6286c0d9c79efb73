export {
  type AnswerVerdict,
  applyVerdict,
  cleanAnswers,
  parseMultiVerdict,
  UNANSWERED_EXACT,
  UNANSWERED_PREFIX,
} from './answer-validation.js';
export { readBankFiles } from './bank-files.js';
export { bankStats } from './bank-stats.js';
export { type CandidatePair, candidatePairs, DEFAULT_EXACT_LIMIT } from './candidate-pairs.js';
export { convertNuggetBanks, NUGGET_TARGETS, type NuggetTarget } from './convert-banks.js';
export { isEnglish } from './english-filter.js';
export { fittedEmbed } from './fitted-embed.js';
export {
  type ClusterSummary,
  type GingerContext,
  gingerBank,
  gingerClusters,
  pendingGingerSummaries,
} from './ginger-baseline.js';
export {
  type DocumentQa,
  groundedQa,
  languageName,
  MAX_QA_PAIRS,
  type NuggetDocument,
  parseQaPairs,
  type QaPair,
  requestPromptText,
} from './grounded-qa.js';
export type { CallOutcome } from './llm-step.js';
export { modelCreator } from './model-creator.js';
export { paperDocuments, readRequestDocuments } from './nugget-documents.js';
export {
  corpusDocumentInputs,
  type NuggetInputs,
  PROMPT_STRATEGY,
  requestDocumentInputs,
} from './nugget-inputs.js';
export {
  documentsInput,
  generateManifest,
  gingerManifest,
  itemsInput,
  qualityManifest,
} from './nugget-manifest.js';
export {
  NuggetPipeline,
  type PipelineOptions,
  type RequestInput,
  type RequestOutcome,
  type StepProgress,
} from './nugget-pipeline.js';
export { PLAN_ASSUMPTIONS, type PlannedCall, planGeneration } from './nugget-plan.js';
export {
  type CanonicalChoice,
  type MergeStats,
  mergeParaphrases,
  type ParaphraseJudgment,
  parseCanonical,
  parseParaphrase,
} from './paraphrase-merge.js';
export { createPassageLocator } from './passage-locator.js';
export * from './prompts/index.js';
export { bankQuality, lexicalDiversity } from './quality/bank-quality.js';
export {
  type QualityWork,
  qualityCalls,
  qualityInput,
  qualityRequestOf,
  qualityTodo,
  qualityWork,
  scoreQualityBanks,
} from './quality/quality-work.js';
export { complexity, readingLevel, syllables } from './quality/readability.js';
export {
  judgeQuality,
  nuggetQuality,
  parseGeneralQualities,
  parsePersonalization,
  parseVitality,
  type QualityContext,
  type QualityRecord,
  type ScoreQualityResult,
  scoreBankQuality,
} from './quality/score-quality.js';
export { QUALITY_FEATURES, qualityFeatures } from './quality-features.js';
export { bankFilesIn, ResultFolder } from './result-folder.js';
export {
  featureRows,
  type SelectionMade,
  selectNuggetBanks,
  selectorFor,
  trainingGroups,
  trainSelectorOnBanks,
} from './select-banks.js';
export {
  byCounts,
  SELECT_METHODS,
  type SelectionReport,
  type SelectMethod,
  type SelectOptions,
  selectNuggets,
} from './select-nuggets.js';
export {
  featureRow,
  loadSelector,
  SELECTOR_FORMAT,
  type Selector,
  SelectorSchema,
  scoreRequest,
  standardise,
  type TrainingGroup,
  trainSelector,
} from './selector.js';
export { StepLog, StepState, type StepStateOptions, stepKey } from './step-log.js';
export { singleLinkClusters } from './union-find.js';

export { CanonicalReplySchema, canonicalPrompt, GET_CANONICAL_QUESTION_SYSTEM } from './canonical-prompt.js';
export { CLUSTER_SUMMARY_SYSTEM, clusterSummaryPrompt } from './cluster-summary-prompt.js';
export { IDENTIFY_PARAPHRASE_SYSTEM, ParaphraseReplySchema, paraphrasePrompt } from './paraphrase-prompt.js';
export { generatePromptsVersion, gingerPromptsVersion, qualityPromptsVersion } from './prompt-versions.js';
export { QaPairsSchema, qaPairsPrompt, WRITE_QA_PAIRS_SYSTEM } from './qa-pairs-prompt.js';
export {
  GENERAL_QUALITIES,
  GENERAL_QUALITIES_SYSTEM,
  PERSONALIZATION_MATCHES,
  PERSONALIZATION_SYSTEM,
  type QualityRequest,
  qualityPrompt,
  VITALITY_SYSTEM,
} from './quality-prompt.js';
export { SUMMARIZE_SYSTEM, summarizePrompt } from './summarize-prompt.js';
export {
  AGGREGATE_ANSWERS_SYSTEM_MULTI,
  AGGREGATE_ANSWERS_SYSTEM_SINGLE,
  validateAnswersPrompt,
} from './validate-answers-prompt.js';

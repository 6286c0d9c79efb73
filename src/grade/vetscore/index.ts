export {
  DEFAULT_HARM_EXPONENT,
  type RiskWeightedClaim,
  type RiskWeightedResult,
  riskWeightedScore,
} from './aggregate.js';
export { type DecompositionOutcome, decomposeSegment } from './decompose.js';
export {
  type AnswerGrade,
  type Coverage,
  type FaithfulnessSettings,
  gradeAnswer,
  type SegmentResult,
  type UnsupportedClaim,
  unsupportedClaims,
} from './grade-answer.js';
export { type BatchOptions, gradeFaithfulnessBatch } from './grade-batch.js';
export { type HarmJudgment, type HarmLevel, rateHarm } from './harm.js';
export { type FaithfulnessInput, type InputProblem, readFaithfulnessInputs } from './input.js';
export { judgeJointly } from './joint.js';
export { type ClaimResult, type JudgeSettings, judgeClaim } from './judge-claim.js';
export type { CallOptions } from './llm-call.js';
export { findMarkerGroups, type MarkerGroup, normaliseKey as normaliseCitationKey } from './markers.js';
export * from './meta/index.js';
export { VETSCORE_METRICS } from './metrics.js';
export { type FaithfulnessPlan, planFaithfulness } from './plan.js';
export { verifyPrompt } from './prompts/index.js';
export {
  majorityVerified,
  medianHarm,
  poolAgreement,
  type RepeatAgreement,
  repeatAgreement,
} from './repeats.js';
export {
  faithfulnessManifest,
  gradeIntoResultsFile,
  pendingAnswers,
  type ResultsFileSettings,
  resultsFileOptions,
} from './results-file.js';
export {
  DEFAULT_HARM_RUBRIC,
  HARM_RUBRICS,
  type HarmRubric,
  type HarmRubricName,
  loadHarmRubric,
  rubricsFolder,
} from './rubric.js';
export { type Excerpt, type Segment, segmentAnswer } from './segment.js';
export {
  FAITHFULNESS_ITERATIONS,
  type FaithfulnessSummary,
  faithfulnessInterval,
  renderFaithfulnessSummary,
  renderUnsupported,
  summarizeFaithfulness,
  unsupportedAcross,
} from './summary.js';
export {
  type JudgeOutcome,
  type VerdictLabel,
  type VerificationJudgment,
  type VerifyOptions,
  verifyClaim,
} from './verify.js';

export {
  type CrowdragAgreementRow,
  reproduceCrowdragLlmAgreement,
} from './crowdrag-llm-agreement.js';
export {
  buildJudgeCard,
  type CardOptions,
  type HumanCeiling,
  humanCeiling,
  type JudgeCard,
  type JudgeIdentity,
  type MeasureTable,
  measuresFor,
  type Reference,
} from './judge-card.js';
export { type RagcheckerMetaEvalRow, reproduceRagcheckerMetaEval } from './ragchecker-meta-eval.js';
export { MEASURE_NAMES, renderJudgeCard } from './render-card.js';
export { rescaledScoreDifferences } from './score-differences.js';

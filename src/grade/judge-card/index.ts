export {
  type CardNote,
  cardNote,
  certifyJudge,
  certifyJudges,
  type JudgedBy,
  requireAgreement,
  uncertifiedBecause,
  uncertifiedLine,
  uncertifiedMetrics,
} from './agreement-gate.js';
export { type CardJudge, cardMismatch, checkJudgeCard, readJudgeCard } from './card-file.js';
export {
  type CertifyPass,
  type CertifyRun,
  type CertifySettings,
  cardFromLabelFile,
  certifySetJudge,
  namingProvider,
  planCertify,
  setJudgeFor,
} from './certify.js';
export { chooseSetJudge, defaultJudgeKind, SET_JUDGE_KINDS, type SetJudgeKind } from './choose-judge.js';
export {
  claimSupportPromptVersion,
  LexicalClaimSupportJudge,
  VetscoreClaimSupportJudge,
} from './claim-support-judge.js';
export {
  type CrowdragAgreementRow,
  reproduceCrowdragLlmAgreement,
} from './crowdrag-llm-agreement.js';
export { CARD_FILE_NAME, CARDS_FOLDER, type CardChoice, type CardSearch, cardForJudge } from './find-card.js';
export { HEADLINE_MEASURES, type HeadlineAgreement, headlineAgreement } from './headline-agreement.js';
export {
  buildJudgeCard,
  type CardOptions,
  type CardReference,
  type HumanCeiling,
  humanCeiling,
  type JudgeCard,
  type JudgeIdentity,
  type MeasureTable,
  measuresFor,
} from './judge-card.js';
export {
  argueJudgeOf,
  arguePromptVersion,
  distinctJudges,
  judgeOfManifest,
  rubricJudgeOf,
  rubricPromptVersion,
  verifierJudgeOf,
} from './judge-identities.js';
export { PAIRWISE_DIMENSIONS, PairwiseJudge } from './pairwise-judge.js';
export { type RagcheckerMetaEvalRow, reproduceRagcheckerMetaEval } from './ragchecker-meta-eval.js';
export { cardSummaryLine, MEASURE_NAMES, renderJudgeCard } from './render-card.js';
export { ReferenceRubricJudge, UtilityRubricJudge } from './rubric-set-judge.js';
export {
  judgmentsManifest,
  planSetJudge,
  runSetJudge,
  type SetRunResult,
  type SetRunSettings,
  sampleItems,
} from './run-set-judge.js';
export { type JudgeProvider, promptVersionOf, type SetJudge, type SetJudgment } from './set-judge.js';
export {
  PaddedJudge,
  padAnswer,
  pointwiseScores,
  type VerbosityProbe,
  verbosityProbe,
} from './verbosity-probe.js';

export {
  type BaselineValues,
  type BertScore,
  type BertScoreOptions,
  bertScore,
  type EncodedText,
  type IdfTable,
  idfFromReferences,
  rescaleWithBaseline,
  type TokenEncoder,
} from './bertscore.js';
export { parseBertScoreBaseline } from './bertscore-baseline.js';
export { BERTSCORE_LANG_MODELS, BERTSCORE_LAYERS, defaultBertScoreLayer } from './bertscore-layers.js';
export { cellLabel, type GridBest, gridBest } from './grid-best.js';
export {
  type GridCell,
  type GridMetricStat,
  type GridOptions,
  type GridRow,
  summarizeGrid,
} from './grid-summary.js';
export { porterStem } from './porter-stemmer.js';
export {
  estimateQaGrid,
  type QaGridEstimateCell,
  type QaGridMode,
  type QaGridOptions,
  type QaGridSettings,
  type QaGridSource,
  qaGridSummary,
  runQaGrid,
  type SkippedMode,
} from './qa-grid.js';
export { parseReferences, qasperReferenceTexts, type ReferenceSet } from './references.js';
export {
  parseRougeTypes,
  type RougeOptions,
  RougeScorer,
  type RougeScores,
  type RougeType,
} from './rouge.js';
export { fmeasure, type RougeScore } from './rouge-lcs.js';
export { rougeTokenize } from './rouge-tokenize.js';
export {
  type BertScoreSettings,
  parseQaMetrics,
  type QaEvalOptions,
  type QaEvalResult,
  type QaMetricId,
  type QaMetricSummary,
  type QaModelSummary,
  type QaScoreRow,
  type QaStatus,
  qaValues,
  scoreAnswers,
  summarizeQaScores,
} from './score-answers.js';

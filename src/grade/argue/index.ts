/** grade/argue: report evaluation with nuggets, the ARGUE way (METHODS §5 steps 6–7). */

export { type ArgueJudgeNoise, argueJudgeNoise, argueRepeatedScores } from './argue-judge-noise.js';
export {
  ALL_METRICS,
  ARGUE_METRIC_DESCRIPTIONS,
  allValues,
  RATIO_METRICS,
  type RatioMetric,
  TOPIC_METRICS,
  type TopicMetric,
  topicValues,
} from './argue-metrics.js';
export { argueMetricScores } from './argue-pairwise.js';
export { type ArgueRun, argueRunsTable } from './argue-runs-table.js';
export {
  argueRunRows,
  formatArgueTsv,
  isTopicMetric,
  parseArgueTsv,
  perTopic,
  type ScoreRow,
  sortTopics,
  type TopicResult,
  TSV_HEADER,
} from './argue-tsv.js';
export { countReport, type GroundingCounts, type GroundingTally, type ReportCounts } from './count-report.js';
export {
  type CitedDocument,
  type CitedDocumentSource,
  corpusDocuments,
  folderDocuments,
  jsonlDocuments,
} from './documents.js';
export {
  type JudgingPlan,
  judgeNuggets,
  judgeReports,
  type PreparedJudging,
  planJudging,
  prepareJudging,
  reportKey,
} from './judge-batch.js';
export {
  ARGUE_JUDGE_TEMPERATURE,
  judgeReportRepeated,
  repeatJudges,
  repeatRequests,
} from './judge-repeats.js';
export {
  type JudgeReportContext,
  type JudgeReportInput,
  judgeReport,
} from './judge-report.js';
export {
  countRepeats,
  type RepeatedVerdict,
  readRepeatSentences,
  topicValuesOverRepeats,
} from './judged-repeats.js';
export * from './judgments.js';
export {
  type JudgedEvidence,
  type JudgeIntoFileResult,
  type JudgmentsSettings,
  judgedReportKey,
  judgedReports,
  judgedReportsIn,
  judgeIntoFile,
  openJudgments,
  pendingJudgments,
  reportJudgmentsFileOptions,
  reportJudgmentsManifest,
} from './judgments-file.js';
export { LEXICAL_DEFAULTS, LexicalJudge, type LexicalJudgeOptions } from './lexical-judge.js';
export { DEFAULT_MAX_DOC_CHARS, type LlmJudgeOptions, LlmReportJudge } from './llm-report-judge.js';
export {
  type CorrelationCi,
  metaEvaluateRanking,
  type RankedSystem,
  type RankingMetaEval,
  type RankingOptions,
  type TopKStability,
} from './meta-ranking.js';
export { type IndexedNugget, indexNuggetBank, type NuggetIndex, type WeightOptions } from './nugget-index.js';
export {
  formatNuggetizerMetrics,
  type NuggetizerScores,
  nuggetizerGlobal,
  nuggetizerScores,
  nuggetizerScoresOfText,
} from './nuggetizer-scores.js';
export type { Attestation, JudgeNugget, ReportJudge } from './report-judge.js';
export { type ScoredInputs, type ScoreInputs, scoreInputs } from './score-inputs.js';
export {
  type JudgedReportLine,
  parseJudgments,
  type ReadJudgmentsResult,
  type RunScores,
  type ScoreOptions,
  scoreJudgedReports,
  scoreRows,
} from './score-judgments.js';
export {
  compareScoredRuns,
  incompleteScoring,
  parseImportanceWeights,
  runNotes,
  type ScoreMetaInput,
  scoreMeta,
} from './score-report.js';
export {
  argueIntervals,
  type IntervalOptions,
  type MetricInterval,
  RunTable,
} from './score-summary.js';
export {
  formatValidationMessage,
  schemaError,
  type ValidateOptions,
  type ValidationMessage,
  validateRun,
} from './validate-run.js';

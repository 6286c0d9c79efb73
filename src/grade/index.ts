export {
  type AggregateOptions,
  aggregateGrades,
  GradesSummary,
  type GroupSummary,
  type MetricSummary,
  type ModelSummary,
  runKey,
  type Spread,
  spreads,
  summarizeGroup,
} from './aggregate.js';
export * from './argue/index.js';
export {
  type AlternativeMatch,
  type AnsweredRow,
  type CitationScores,
  citationScores,
  isRefusalRow,
  type PaperQuotes,
  researchqaMatch,
  spanMatch,
  usableGroups,
} from './citation-metrics.js';
export {
  type AlternativeMatchMode,
  alternativeMatcher,
  DeterministicGrader,
  type DeterministicOptions,
  gradeRowOf,
  setMetric,
} from './deterministic-grader.js';
export {
  type EvidenceTally,
  type GroundingOptions,
  groundSupport,
  mergeTallies,
  renderEvidenceTally,
  type SupportGrounding,
  tallyEvidence,
} from './evidence-grounding.js';
export { type GradeRow, GradeRowSchema } from './grade-row.js';
export { type GradeRunOptions, type GradeRunResult, gradeRun } from './grade-run.js';
export {
  estimateJudging,
  type GradeToFileResult,
  type GradingSettings,
  gradeRunToFile,
  gradesFileOptions,
  gradesManifest,
  runRowHash,
} from './grades-file.js';
export { isGradesText, parseGrades, parseGradesFile, readGrades } from './grades-io.js';
export * from './human-labels/index.js';
export * from './judge-card/index.js';
export {
  METRIC_IDS,
  type MetricDefinition,
  QA_METRICS,
  RESEARCHQA_METRICS,
  type ResearchqaMetricId,
} from './metric-registry.js';
export { paperQuotes, strictRule } from './paper-quotes.js';
export {
  type DeterministicGradingOptions,
  type GradingJob,
  gradeDeterministic,
} from './parallel-grading.js';
export * from './qa/index.js';
export * from './qasper/index.js';
export {
  AnchoredRubricJudge,
  fence,
  type Judge,
  type JudgeResult,
  RUBRIC_SYSTEM_PROMPT,
  type RubricInput,
  type RubricJudgment,
  type RubricScores,
  RubricScoresSchema,
  rubricUserPrompt,
} from './rubric-judge.js';
export {
  cappedAccuracy,
  type GroundedRubricItem,
  groundRubricVerdict,
  type RubricEvidenceItem,
  type RubricGrounding,
  tallyRubricEvidence,
} from './rubric-judge-grounding.js';
export { indexRun, type RunIndex } from './run-index.js';
export { type RunReadResult, readRun } from './run-io.js';
export * from './vetscore/index.js';

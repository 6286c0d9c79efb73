export * from './argue/index.js';
export { assertComparable, type ComparableFile, MIN_SHARED_ITEMS } from './comparable-files.js';
export {
  compareScoreFiles,
  type JudgeNoise,
  judgeNoise,
  type ScoreComparison,
} from './compare-score-files.js';
export {
  type EvidenceTally,
  type GroundingOptions,
  groundSupport,
  mergeTallies,
  renderEvidenceTally,
  type SupportGrounding,
  tallyEvidence,
} from './evidence-grounding.js';
export * from './human-labels/index.js';
export * from './judge-card/index.js';
export * from './qa/index.js';
export * from './qasper/index.js';
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
} from './researchqa/aggregate.js';
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
} from './researchqa/citation-metrics.js';
export {
  type AlternativeMatchMode,
  alternativeMatcher,
  DeterministicGrader,
  type DeterministicOptions,
  gradeRowOf,
  setMetric,
} from './researchqa/deterministic-grader.js';
export { type GradeRow, GradeRowSchema } from './researchqa/grade-row.js';
export { type GradeRunOptions, type GradeRunResult, gradeRun } from './researchqa/grade-run.js';
export {
  estimateJudging,
  type GradeToFileResult,
  type GradingSettings,
  gradeRunToFile,
  gradesFileOptions,
  gradesManifest,
  runRowHash,
} from './researchqa/grades-file.js';
export { isGradesText, parseGrades, parseGradesFile, readGrades } from './researchqa/grades-io.js';
export {
  finishGradesFile,
  type GradesSummaryFigures,
  type GradesTarget,
  gradesTarget,
  summarizeGrades,
} from './researchqa/grades-output.js';
export { gradesMetricScores, gradesPairwise } from './researchqa/grades-pairwise.js';
export {
  gradesJudgeNoise,
  gradesRepeatedScores,
  type MetricRepeats,
} from './researchqa/grades-repeats.js';
export {
  METRIC_IDS,
  type MetricDefinition,
  metricLabel,
  QA_METRICS,
  RESEARCHQA_METRICS,
  type ResearchqaMetricId,
} from './researchqa/metric-registry.js';
export {
  type GradingSetup,
  type OpenedGrading,
  type OpenGradingOptions,
  openGrading,
  type QuoteMode,
} from './researchqa/open-grading.js';
export { paperQuotes, strictRule } from './researchqa/paper-quotes.js';
export {
  type DeterministicGradingOptions,
  type GradingJob,
  gradeDeterministic,
} from './researchqa/parallel-grading.js';
export {
  AnchoredRubricJudge,
  fence,
  type Judge,
  type JudgeResult,
  RUBRIC_JUDGE_TEMPERATURE,
  RUBRIC_SYSTEM_PROMPT,
  type RubricInput,
  type RubricJudgment,
  type RubricScores,
  RubricScoresSchema,
  rubricUserPrompt,
} from './researchqa/rubric-judge.js';
export {
  cappedAccuracy,
  type GroundedRubricItem,
  groundRubricVerdict,
  type RubricEvidenceItem,
  type RubricGrounding,
  tallyRubricEvidence,
} from './researchqa/rubric-judge-grounding.js';
export { RunsByLabel } from './researchqa/runs-by-label.js';
export {
  defaultComparisonSeed,
  mergeScoreFiles,
  readScoreFile,
  type ScoreFile,
  type ScoreFileKind,
  type ScoreFileText,
  scoreFileKind,
} from './score-files.js';
export * from './vetscore/index.js';
export { type RepeatedAnswer, repeatScores } from './vetscore/repeat-scores.js';

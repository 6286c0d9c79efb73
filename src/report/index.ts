export type { GradesSource, RunSource } from './answer-join.js';
export { renderArgueJudgeNoise } from './argue-judge-noise-text.js';
export { type ArgueScoring, renderArgueScoring } from './argue-scoring-text.js';
export { renderArgueTable } from './argue-table.js';
export { buildReportData, type ReportInput } from './build-report.js';
export { escapeHtml } from './escape-html.js';
export { type FaithfulnessSource, faithfulnessLabel } from './faithfulness-section.js';
export {
  buildReportFromFiles,
  optionsFromRecipe,
  PAPER_TEXT_MODES,
  type ReportOptions,
  writeReport,
} from './inputs/write-report.js';
export { renderJudgeNoise, renderJudgeVariance } from './judge-noise-text.js';
export { type BankNuggets, bankNuggets } from './judgments-section.js';
export { renderBreakdown, renderLeaderboard } from './leaderboard-table.js';
export { type LooseGrade, looseGradeRow } from './loose-grade-row.js';
export {
  type ManifestInfo,
  manifestOf,
  type RecordLine,
  type SplitRecords,
  splitRecords,
} from './loose-records.js';
export { renderPairwiseTable } from './pairwise-text.js';
export type { PaperTextMode } from './paper-excerpts.js';
export { renderGrid } from './qa-grid-table.js';
export { renderQaSummary } from './qa-summary-text.js';
export { reportAssets } from './report-assets.js';
export type * from './report-data.js';
export {
  embedJson,
  RECIPE_ELEMENT_ID,
  RECIPE_PATH_LISTS,
  RECIPE_PATHS,
  type ReportAssets,
  type ReportRecipe,
  renderReportPage,
  reportCsp,
} from './report-page.js';

export { renderArgueTable } from './argue-table.js';
export { escapeHtml } from './escape-html.js';
export {
  type HtmlSummaryInput,
  renderHtmlSummary,
  type SummaryCitation,
  type SummaryMetric,
  type SummaryModel,
  type SummaryRow,
} from './html-summary.js';
export { renderBreakdown, renderLeaderboard } from './leaderboard-table.js';
export { buildRunSummary, type RunSummaryInput } from './run-summary.js';

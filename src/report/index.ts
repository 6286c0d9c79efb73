export { escapeHtml } from './escape-html.js';
export { renderBreakdown, renderLeaderboard } from './leaderboard-table.js';
export { formatScore, renderTable, type TableColumn } from './text-table.js';

export { renderBreakdown, renderLeaderboard } from './leaderboard-table.js';

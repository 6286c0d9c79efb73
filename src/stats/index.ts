/** stats/: pure statistical functions (no I/O). Every function refuses NaN/Infinity input. */
export { type Correlation, pearson, spearman } from './correlation.js';
export { kendallTauB, kendallTauC } from './kendall.js';
export { rankData } from './rank.js';

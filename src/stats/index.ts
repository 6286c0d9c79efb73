/** stats/: pure statistical functions (no I/O). Every function refuses NaN/Infinity input. */
export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapCI,
  bootstrapPairedCI,
  type PairedStatistic,
  type SampleStatistic,
} from './bootstrap.js';
export { type Correlation, pearson, spearman } from './correlation.js';
export { mean, median, quantileSorted, type Summary, summarize } from './descriptive.js';
export { kendallTauB, kendallTauC } from './kendall.js';
export {
  type CoincidenceMatrix,
  coincidenceMatrix,
  krippendorffAlpha,
  type MeasurementLevel,
  type ReliabilityData,
} from './krippendorff-alpha.js';
export { type PairedTTestResult, pairedTTest } from './paired-t-test.js';
export { createRandom, type Random, randomInt } from './random.js';
export {
  pairedRandomizationTest,
  type RandomizationOptions,
  type RandomizationResult,
} from './randomization-test.js';
export { rankData } from './rank.js';
export {
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTTwoSidedP,
} from './special-functions.js';

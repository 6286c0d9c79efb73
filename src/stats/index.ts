/** stats/: pure statistical functions (no I/O). Every function refuses NaN/Infinity input. */
export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapCI,
  bootstrapPairedCI,
  type PairedStatistic,
  type SampleStatistic,
} from './bootstrap.js';
export { type CorrelationValue, pearson, spearman } from './correlation.js';
export { type ColumnSummary, mean, median, quantileSorted, summarize } from './descriptive.js';
export { kendallTauB, kendallTauC } from './kendall.js';
export {
  type CoincidenceMatrix,
  coincidenceMatrix,
  krippendorffAlpha,
  type MeasurementLevel,
  type ReliabilityData,
} from './krippendorff-alpha.js';
export { type LinearSvmModel, type LinearSvmOptions, trainLinearSvm } from './linear-svm.js';
export { type PairedTTestResult, pairedTTest } from './paired-t-test.js';
export {
  fitPartialCreditModel,
  type PartialCreditFit,
  type PartialCreditOptions,
  type PcmFacetId,
  type PcmItemMeasure,
  type PcmRaterSeverity,
  type PcmRating,
} from './partial-credit-model.js';
export { partialCreditExpectedScore, partialCreditProbabilities } from './partial-credit-probabilities.js';
export { createRandom, type RandomSource, randomInt } from './random.js';
export {
  pairedRandomizationTest,
  type RandomizationOptions,
  type RandomizationResult,
} from './randomization-test.js';
export { rankData } from './rank.js';
export { reliabilityDataFromRatings, type UnitRating } from './reliability-data.js';
export {
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTTwoSidedP,
} from './special-functions.js';

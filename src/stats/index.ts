/** stats/: pure statistical functions (no I/O). Every function refuses NaN/Infinity input. */

export { bootstrapAgreement } from './agreement-bootstrap.js';
export {
  AGREEMENT_MEASURES,
  type AgreementMeasureId,
  type AgreementSpec,
  type AgreementValues,
  agreementMeasures,
  type CategoryAgreement,
  type CategoryIndex,
  categoryIndex,
  confusionOf,
  type KappaWeights,
  measureEvaluator,
  perCategoryOf,
} from './agreement-measures.js';
export { bcaBounds } from './bca-interval.js';
export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapCI,
  bootstrapPairedCI,
  type PairedStatistic,
  type SampleStatistic,
} from './bootstrap.js';
export { type BuildPairwiseOptions, buildPairwiseTable } from './build-pairwise-table.js';
export { cohensDz, differenceSd } from './cohens-dz.js';
export { type CorrelationValue, pearson, spearman } from './correlation.js';
export { type ColumnSummary, mean, median, quantileSorted, summarize } from './descriptive.js';
export { type JudgeVariance, judgeVariance } from './judge-variance.js';
export { kendallTauB, kendallTauC } from './kendall.js';
export { canonicalOrder, keyedMeanInterval, SUMMARY_ITERATIONS } from './keyed-mean-interval.js';
export {
  alphaFromCoincidence,
  type CoincidenceMatrix,
  coincidenceMatrix,
  krippendorffAlpha,
  krippendorffAlphaOfUnits,
  type MeasurementLevel,
  type ReliabilityData,
} from './krippendorff-alpha.js';
export { type LinearSvmModel, type LinearSvmOptions, trainLinearSvm } from './linear-svm.js';
export { minimumDetectableDifference } from './minimum-detectable-difference.js';
export { adjustPValues, CORRECTIONS, type Correction } from './multiple-comparisons.js';
export { erfc, normalCdf, normalQuantile } from './normal-distribution.js';
export { type ItemScore, type PairedItems, pairItems } from './pair-items.js';
export { type PairTable, pairTable } from './pair-table.js';
export {
  type PairedBootstrapOptions,
  type PairedBootstrapResult,
  pairedBootstrap,
} from './paired-bootstrap.js';
export {
  comparePairedItems,
  PAIRED_TESTS,
  type PairedComparison,
  type PairedComparisonOptions,
  type PairedTestName,
  type PairedTestResult,
} from './paired-comparison.js';
export {
  type PairedPermutationOptions,
  type PairedPermutationResult,
  pairedPermutationTest,
  pairedRandomizationTest,
} from './paired-permutation-test.js';
export { type PairedTTestResult, pairedTTest } from './paired-t-test.js';
export { type MatrixCell, type PairwiseMatrix, pairwiseMatrices } from './pairwise-matrix.js';
export {
  type BestGroup,
  type MetricScores,
  type PairwiseRow,
  type PairwiseTable,
  type PairwiseTableOptions,
  pairwiseTable,
  type SystemScores,
} from './pairwise-table.js';
export { pairwiseTableThreaded, type ThreadedPairwiseOptions } from './pairwise-table-threaded.js';
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
export { rankData } from './rank.js';
export {
  type PairStability,
  type RankStability,
  type RankStabilityOptions,
  type RepeatedScores,
  rankStability,
  type SystemStability,
} from './rank-stability.js';
export { reliabilityDataFromRatings, type UnitRating } from './reliability-data.js';
export { type SignTestResult, signTest } from './sign-test.js';
export {
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTTwoSidedP,
} from './special-functions.js';
export { type WilcoxonMethod, type WilcoxonResult, wilcoxonSignedRank } from './wilcoxon-signed-rank.js';

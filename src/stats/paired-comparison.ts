import { CitegeistError, quoteValue } from '../core/index.js';
import { dzOfDifferences } from './cohens-dz.js';
import { meanUnchecked } from './descriptive.js';
import { minimumDetectableDifference } from './minimum-detectable-difference.js';
import type { PairedScores } from './pair-items.js';
import { bootstrapDifferences, type PairedBootstrapResult } from './paired-bootstrap.js';
import { type PairedDifferences, pairedDifferences } from './paired-differences.js';
import { permutationTestDifferences } from './paired-permutation-test.js';
import { pairedTTest } from './paired-t-test.js';
import { signTest } from './sign-test.js';
import { assertPaired } from './validate.js';
import { wilcoxonSignedRank } from './wilcoxon-signed-rank.js';

/** The significance tests a comparison can use (`--test`). */
export type PairedTestName = 'bootstrap' | 'randomization' | 't' | 'wilcoxon' | 'sign';
export const PAIRED_TESTS: readonly PairedTestName[] = [
  'randomization',
  'bootstrap',
  't',
  'wilcoxon',
  'sign',
];

export interface PairedComparisonOptions {
  /** Default 'randomization' (paired sign-flip test; Smucker et al. 2007). */
  test?: PairedTestName;
  /** Bootstrap resamples and Monte Carlo sign patterns; default 10,000 each. */
  iterations?: number;
  /** mulberry32 seed of both; default 0. */
  seed?: number;
  /** Interval coverage; default 0.95. */
  confidence?: number;
  /** Level of the minimum detectable difference; default 0.05. */
  alpha?: number;
  /** Power of the minimum detectable difference; default 0.8. */
  power?: number;
}

/** What the chosen test gave. */
export interface PairedTestResult {
  name: PairedTestName;
  /** Two-sided p-value; null when the test is undefined on these pairs (e.g. no difference at all). */
  p: number | null;
  /** The test's statistic: t, min(R+, R−), positives, mean difference; null where undefined. */
  statistic: number | null;
  /** How p was found: 'exact', 'monte-carlo', 'asymptotic', 'permutation', 't', 'binomial'. */
  method: string | null;
  /** Monte Carlo standard error of p (0 when exact or analytic). */
  monteCarloError: number;
}

/** A paired comparison of systems A and B on the items both scored. */
export interface PairedComparison {
  /** Items both scored (the pairs). */
  n: number;
  /** Shared items left out: failed on either side, or not applicable on either side. */
  dropped: { failed: number; notApplicable: number };
  onlyA: number;
  onlyB: number;
  meanA: number | null;
  meanB: number | null;
  /** mean(A − B) over the pairs, with its percentile and BCa bootstrap intervals. */
  delta: PairedBootstrapResult;
  /** Cohen's d_z; null with no spread in the differences. */
  dz: number | null;
  /** sd of A − B (n − 1); null for n < 2. */
  sdDifference: number | null;
  /** Minimum detectable difference at `alpha` and `power` (normal approximation). */
  mdd: { value: number | null; alpha: number; power: number };
  wins: number;
  ties: number;
  losses: number;
  test: PairedTestResult;
  /** Every difference is the same value (no spread): reported, nothing divided by zero. */
  zeroVariance: boolean;
}

/** Compares two systems on paired items (from `pairItems`; the ids are not read) with the test asked for. */
export function comparePairedItems(
  items: PairedScores,
  options: PairedComparisonOptions = {},
): PairedComparison {
  assertTestName(options.test);
  const { a, b } = items;
  assertPaired('comparePairedItems', a, b, ['a', 'b']);
  // d = a − b once (typed, with its mean, sd, levels and win/loss counts): every figure reads it.
  const summary = {
    ...items,
    diffs: pairedDifferences(a, b),
    meanA: meanUnchecked(a),
    meanB: meanUnchecked(b),
  };
  return compareSummary(summary, () => items, options);
}

/** What every figure of a comparison but the t, Wilcoxon and sign tests reads: d = a − b and the means. */
export interface PairedSummary extends Omit<PairedScores, 'a' | 'b'> {
  diffs: PairedDifferences;
  meanA: number | null;
  meanB: number | null;
}

/**
 * `comparePairedItems` from the differences and means already computed (`compareAligned` makes
 * them in its pairing pass); `scores` gives the paired values themselves, read only by the tests
 * that need them (t, Wilcoxon, sign).
 */
export function compareSummary(
  summary: PairedSummary,
  scores: () => PairedScores,
  options: PairedComparisonOptions = {},
): PairedComparison {
  const { test = 'randomization', iterations = 10_000, seed = 0, confidence = 0.95 } = options;
  const { alpha = 0.05, power = 0.8 } = options;
  assertTestName(test);
  const { diffs } = summary;
  const { n, sd: sdDifference } = diffs;
  const delta = bootstrapDifferences(diffs, { iterations, seed, confidence });
  return {
    n,
    dropped: { failed: summary.droppedFailed, notApplicable: summary.droppedNotApplicable },
    onlyA: summary.onlyA,
    onlyB: summary.onlyB,
    meanA: summary.meanA,
    meanB: summary.meanB,
    delta,
    dz: dzOfDifferences(diffs),
    sdDifference,
    mdd: { value: minimumDetectableDifference(sdDifference, n, alpha, power), alpha, power },
    wins: diffs.wins,
    ties: n - diffs.wins - diffs.losses,
    losses: diffs.losses,
    test: runTest(test, scores, diffs, delta, { iterations, seed }),
    zeroVariance: diffs.zeroVariance,
  };
}

function assertTestName(test: PairedTestName = 'randomization'): void {
  if (!PAIRED_TESTS.includes(test)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `comparePairedItems: test ${quoteValue(test)} is not one of ${PAIRED_TESTS.join(', ')}.`,
      'Use --test randomization (the default), bootstrap, t, wilcoxon or sign.',
    );
  }
}

function runTest(
  name: PairedTestName,
  scores: () => PairedScores,
  diffs: PairedDifferences,
  delta: PairedBootstrapResult,
  resampling: { iterations: number; seed: number },
): PairedTestResult {
  switch (name) {
    case 'bootstrap':
      return {
        name,
        p: delta.p,
        statistic: delta.estimate,
        method: 'bootstrap',
        monteCarloError: mcError(delta.p, resampling.iterations),
      };
    case 'randomization': {
      const r = permutationTestDifferences(diffs, resampling);
      return {
        name,
        p: r.p,
        statistic: r.observed,
        method: r.exact ? 'exact' : 'monte-carlo',
        monteCarloError: r.monteCarloError,
      };
    }
    case 't': {
      const { a, b } = scores();
      const t = pairedTTest(a, b);
      const statistic = t.t !== null && Number.isFinite(t.t) ? t.t : null;
      return { name, p: t.p, statistic, method: 't', monteCarloError: 0 };
    }
    case 'wilcoxon': {
      const { a, b } = scores();
      const w = wilcoxonSignedRank(a, b);
      return { name, p: w.p, statistic: w.statistic, method: w.method, monteCarloError: 0 };
    }
    case 'sign': {
      const { a, b } = scores();
      const s = signTest(a, b);
      return { name, p: s.p, statistic: s.positive, method: 'binomial', monteCarloError: 0 };
    }
  }
}

const mcError = (p: number | null, iterations: number) =>
  p === null ? 0 : Math.sqrt((p * (1 - p)) / iterations);

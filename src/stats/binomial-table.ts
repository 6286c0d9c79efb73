import type { RandomSource } from './random.js';
import { logGamma } from './special-functions.js';

/** A Binomial(trials, ½) distribution tabulated for sampling by inversion (`drawHalfBinomial`). */
export interface HalfBinomialTable {
  /** Smallest tabulated count. */
  lo: number;
  /** cdf[i] = P(X ≤ lo + i); the last entry is 1. */
  cdf: Float64Array;
  /**
   * Where to search for a uniform u: the answer lies in guide[g] .. guide[g + 1] for
   * g = ⌊u · (guide.length − 1)⌋ (guide[g] is the first index whose cdf exceeds g / G).
   */
  guide: Int32Array;
}

/** Standard deviations kept on each side: the mass left out is below 1e-18, under a uniform's 2⁻³². */
const SPREAD = 9.5;

/**
 * The CDF of Binomial(trials, ½) over mode ± 9.5 σ (every count when trials is small), the pmf
 * by the ratio recurrence from the mode (one log-gamma per table). The randomization test draws
 * how many of each |d| level flip from a fixed number of trials 10,000 times over, so a table built
 * once per level and searched with one uniform per draw replaces a rejection sampler whose set-up
 * (square roots, logarithms) was paid on every draw. Exact up to floating point and the 1e-18 tails.
 */
export function halfBinomialTable(trials: number): HalfBinomialTable {
  const mode = Math.floor(trials / 2);
  const half = Math.ceil(SPREAD * Math.sqrt(trials / 4)) + 1;
  const lo = Math.max(0, mode - half);
  const hi = Math.min(trials, mode + half);
  const pmf = new Float64Array(hi - lo + 1);
  const logMode = logGamma(trials + 1) - logGamma(mode + 1) - logGamma(trials - mode + 1) - trials * Math.LN2;
  pmf[mode - lo] = Math.exp(logMode);
  for (let k = mode; k < hi; k++) pmf[k + 1 - lo] = (pmf[k - lo]! * (trials - k)) / (k + 1);
  for (let k = mode; k > lo; k--) pmf[k - 1 - lo] = (pmf[k - lo]! * k) / (trials - k + 1);
  const cdf = new Float64Array(pmf.length);
  let total = 0;
  for (let i = 0; i < pmf.length; i++) total += pmf[i]!;
  let run = 0;
  for (let i = 0; i < pmf.length; i++) {
    run += pmf[i]! / total;
    cdf[i] = run;
  }
  cdf[cdf.length - 1] = 1;
  return { lo, cdf, guide: guideTable(cdf) };
}

/**
 * A guide table (Chen & Asau 1974) over G = 2^k ≥ cdf.length buckets of [0, 1): u · G is then exact
 * and its bucket brackets the answer, so a draw searches a bucket or two of the CDF instead of
 * all of it; the result is the same index the full search finds (the first cdf entry above u).
 */
function guideTable(cdf: Float64Array): Int32Array {
  let buckets = 1;
  while (buckets < cdf.length) buckets *= 2;
  const guide = new Int32Array(buckets + 1);
  let i = 0;
  for (let g = 0; g < buckets; g++) {
    while (i < cdf.length - 1 && !(cdf[i]! > g / buckets)) i++;
    guide[g] = i;
  }
  guide[buckets] = cdf.length - 1;
  return guide;
}

/** One draw from a tabulated Binomial(trials, ½): the first count whose CDF exceeds a uniform. */
export function drawHalfBinomial(random: RandomSource, table: HalfBinomialTable): number {
  const u = random();
  const { cdf, guide } = table;
  const g = Math.floor(u * (guide.length - 1));
  let left = guide[g]!;
  let right = guide[g + 1]!;
  while (left < right) {
    const mid = (left + right) >>> 1;
    if (cdf[mid]! > u) right = mid;
    else left = mid + 1;
  }
  return table.lo + left;
}

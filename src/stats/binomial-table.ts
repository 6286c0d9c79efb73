import type { RandomSource } from './random.js';
import { logGamma } from './special-functions.js';

/** A Binomial(trials, ½) distribution tabulated for sampling by inversion (`drawHalfBinomial`). */
export interface HalfBinomialTable {
  /** Smallest tabulated count. */
  lo: number;
  /** cdf[i] = P(X ≤ lo + i); the last entry is 1. */
  cdf: Float64Array;
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
  return { lo, cdf };
}

/** One draw from a tabulated Binomial(trials, ½): the first count whose CDF exceeds a uniform. */
export function drawHalfBinomial(random: RandomSource, table: HalfBinomialTable): number {
  const u = random();
  const { cdf } = table;
  let left = 0;
  let right = cdf.length - 1;
  while (left < right) {
    const mid = (left + right) >>> 1;
    if (cdf[mid]! > u) right = mid;
    else left = mid + 1;
  }
  return table.lo + left;
}

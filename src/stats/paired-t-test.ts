import { meanUnchecked } from './descriptive.js';
import { studentTTwoSidedP } from './special-functions.js';
import { assertPaired } from './validate.js';

/** Result of a paired test; p-values are two-sided. */
export interface PairedTTestResult {
  n: number;
  /** Mean of a[i] − b[i]; null for n = 0. */
  meanDifference: number | null;
  /**
   * t = mean(d) / (sd(d) / √n). ±Infinity when every difference is the same non-zero value (SciPy
   * gives the same); null when it is undefined (n < 2, or all differences are 0).
   */
  t: number | null;
  /** n − 1 (null for n < 2). */
  df: number | null;
  /** Two-sided p-value from Student's t; 0 for an infinite t; null when t is null. */
  p: number | null;
}

/** Paired (dependent samples) Student t-test on a[i] − b[i] (SciPy `ttest_rel`, two-sided). */
export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTTestResult {
  assertPaired('pairedTTest', a, b, ['a', 'b']);
  const n = a.length;
  const d = a.map((v, i) => v - b[i]!);
  const meanDifference = meanUnchecked(d);
  if (n < 2 || meanDifference === null) return { n, meanDifference, t: null, df: null, p: null };
  let ss = 0;
  for (const v of d) ss += (v - meanDifference) * (v - meanDifference);
  const sd = Math.sqrt(ss / (n - 1));
  const df = n - 1;
  // An exact check (not sd === 0) so that rounding noise around a constant difference is not a t.
  if (d.every((v) => v === d[0])) {
    if (meanDifference === 0) return { n, meanDifference, t: null, df, p: null };
    return { n, meanDifference, t: Math.sign(meanDifference) * Number.POSITIVE_INFINITY, df, p: 0 };
  }
  const t = meanDifference / (sd / Math.sqrt(n));
  return { n, meanDifference, t, df, p: studentTTwoSidedP(t, df) };
}

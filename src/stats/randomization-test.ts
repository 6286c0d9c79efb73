import { CitegeistError } from '../core/index.js';
import { meanUnchecked } from './descriptive.js';
import { createRandom } from './random.js';
import { assertPaired, assertResampling } from './validate.js';

export interface RandomizationOptions {
  /** Random sign-flip draws when exact enumeration is too large; default 10,000. */
  iterations?: number;
  /** PRNG seed (mulberry32); default 0. */
  seed?: number;
  /** Statistic of the differences a[i] − b[i]; default their mean. Must be finite. */
  statistic?: (differences: readonly number[]) => number;
}

export interface RandomizationResult {
  n: number;
  /** The statistic on the observed differences (null for n = 0). */
  observed: number | null;
  /** Two-sided p-value (null for n = 0). */
  p: number | null;
  /** True when all 2^n sign patterns were enumerated (then p is exact). */
  exact: boolean;
  /** Sign patterns evaluated (2^n when exact, else `iterations`). */
  iterations: number;
  seed: number;
}

/**
 * Two-sided paired randomization (sign-flipping) test, the usual significance test between two
 * systems scored on the same items (Smucker et al. 2007). Under H0 each difference d_i = a_i − b_i
 * is as likely to be −d_i; the p-value is the share of sign patterns whose |statistic| is at least
 * the observed |statistic| (with a relative tolerance of 1e-12 so rounding does not break ties).
 *
 * When 2^n ≤ iterations every pattern is enumerated and p is exact. Otherwise `iterations` random
 * patterns are drawn and p = (1 + hits) / (1 + iterations): the +1 counts the observed pattern
 * itself, which makes the Monte Carlo p-value valid (never 0, never below the test's true size;
 * Phipson & Smyth 2010).
 */
export function pairedRandomizationTest(
  a: readonly number[],
  b: readonly number[],
  options: RandomizationOptions = {},
): RandomizationResult {
  assertPaired('pairedRandomizationTest', a, b, ['a', 'b']);
  const {
    iterations = 10_000,
    seed = 0,
    statistic = (d: readonly number[]) => meanUnchecked(d) ?? 0,
  } = options;
  const fn = 'pairedRandomizationTest';
  assertResampling(fn, iterations, seed);
  const n = a.length;
  if (n === 0) return { n, observed: null, p: null, exact: false, iterations: 0, seed };
  const d = a.map((v, i) => v - b[i]!);
  const observed = checked(statistic(d));
  const threshold = Math.abs(observed) * (1 - 1e-12);
  const flipped = new Array<number>(n);
  const exact = n <= 30 && 2 ** n <= iterations;
  let hits = 0;
  if (exact) {
    const patterns = 2 ** n;
    for (let mask = 0; mask < patterns; mask++) {
      for (let i = 0; i < n; i++) flipped[i] = mask & (1 << i) ? -d[i]! : d[i]!;
      if (Math.abs(checked(statistic(flipped))) >= threshold) hits++;
    }
    return { n, observed, p: hits / patterns, exact, iterations: patterns, seed };
  }
  const random = createRandom(seed);
  for (let k = 0; k < iterations; k++) {
    for (let i = 0; i < n; i++) flipped[i] = random() < 0.5 ? -d[i]! : d[i]!;
    if (Math.abs(checked(statistic(flipped))) >= threshold) hits++;
  }
  return { n, observed, p: (1 + hits) / (1 + iterations), exact, iterations, seed };
}

function checked(value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new CitegeistError(
      'STATS_STATISTIC_NOT_FINITE',
      `pairedRandomizationTest: the statistic returned ${String(value)}; it must return a finite number.`,
      'Use a statistic that is defined for every sign pattern of the differences (e.g. the mean).',
    );
  }
  return value;
}

import { regularizedIncompleteBeta } from './special-functions.js';
import { assertPaired } from './validate.js';

export interface SignTestResult {
  /** Pairs with a non-zero difference (ties are left out). */
  n: number;
  /** Pairs where a > b. */
  positive: number;
  /** Pairs where a < b. */
  negative: number;
  /** Pairs where a = b, left out. */
  ties: number;
  /** Two-sided exact binomial p-value; null when every pair is a tie. */
  p: number | null;
}

/**
 * Sign test: the number of pairs with a > b among the non-tied pairs is Binomial(n, ½) under H0.
 * Two-sided exact p as SciPy `binomtest(k, n, 0.5)`: the probability of outcomes no more likely than
 * the one seen, which for p = ½ is min(1, 2 · P(X ≤ min(k, n − k))), and 1 when k = n/2. The lower
 * tail is I_{1/2}(n − j, j + 1) (regularized incomplete beta).
 */
export function signTest(a: readonly number[], b: readonly number[]): SignTestResult {
  assertPaired('signTest', a, b, ['a', 'b']);
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i]! > b[i]!) positive++;
    else if (a[i]! < b[i]!) negative++;
  }
  const n = positive + negative;
  const ties = a.length - n;
  if (n === 0) return { n, positive, negative, ties, p: null };
  const j = Math.min(positive, negative);
  const p = 2 * j === n ? 1 : Math.min(1, 2 * regularizedIncompleteBeta(0.5, n - j, j + 1));
  return { n, positive, negative, ties, p };
}

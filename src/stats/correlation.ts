import { rankData } from './rank.js';
import { assertPaired } from './validate.js';

/**
 * A correlation coefficient, or `null` when it is not defined for the data: fewer than two pairs,
 * or a sample without variation (all values tied). SciPy returns NaN in these cases; we return
 * `null` ("not applicable") so that it can never be mistaken for a number in a mean or a table.
 */
export type CorrelationValue = number | null;

/**
 * Pearson's product-moment correlation r (SciPy `pearsonr(x, y).statistic`). Two-pass, centred
 * sums; the result is clipped to [-1, 1] against rounding.
 */
export function pearson(x: readonly number[], y: readonly number[]): CorrelationValue {
  assertPaired('pearson', x, y);
  return pearsonUnchecked(x, y);
}

/** Spearman's ρ: Pearson's r on average ranks (SciPy `spearmanr`), so ties are handled exactly. */
export function spearman(x: readonly number[], y: readonly number[]): CorrelationValue {
  assertPaired('spearman', x, y);
  if (x.length < 2) return null;
  return pearsonUnchecked(rankData(x), rankData(y));
}

function pearsonUnchecked(x: readonly number[], y: readonly number[]): CorrelationValue {
  const n = x.length;
  if (n < 2 || isConstant(x) || isConstant(y)) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  const r = sxy / Math.sqrt(sxx) / Math.sqrt(syy);
  return Math.max(-1, Math.min(1, r));
}

/** Exact check (like SciPy's) so that a constant sample never yields a rounding-noise correlation. */
export function isConstant(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

import { numpySum } from '../python-compat/index.js';
import { normalCdf } from './normal-distribution.js';
import { rankData } from './rank.js';
import { assertPaired } from './validate.js';

/** How the p-value was found, as SciPy `wilcoxon(method='auto')` chooses. */
export type WilcoxonMethod = 'exact' | 'permutation' | 'asymptotic';

export interface WilcoxonResult {
  /** Pairs given (zeros included). */
  n: number;
  /** Pairs with a zero difference, left out of the ranks (zero_method='wilcox'). */
  zeros: number;
  /** min(R+, R−), SciPy's two-sided statistic; null when every difference is 0. */
  statistic: number | null;
  /** Two-sided p-value; null when every difference is 0 (SciPy gives NaN). */
  p: number | null;
  method: WilcoxonMethod | null;
  /** The normal statistic (asymptotic method only), −|z| as SciPy reports it. */
  z: number | null;
}

/**
 * Wilcoxon signed-rank test of d = a − b, two-sided, with SciPy 1.17's defaults
 * (`wilcoxon(a, b)`: zero_method='wilcox', correction=False, method='auto'): zero differences are
 * dropped; |d| is ranked with ties averaged; R+ is the sum of ranks of positive differences.
 * The method: more than 50 pairs (zeros counted) → normal approximation, z = (R+ − m(m+1)/4) / σ
 * with σ² = (m(m+1)(2m+1) − Σ(t³ − t)/2) / 24 over the m non-zero differences and tie groups t,
 * no continuity correction; else, without ties or zeros → the exact null distribution of R+, p =
 * 2 · min(P(R+ ≥ ⌊r⌋), P(R+ ≤ ⌈r⌉)); else with at most 13 pairs → every sign pattern enumerated
 * (SciPy's permutation test, exact at that size); else the normal approximation.
 */
export function wilcoxonSignedRank(a: readonly number[], b: readonly number[]): WilcoxonResult {
  assertPaired('wilcoxonSignedRank', a, b, ['a', 'b']);
  const n = a.length;
  const d = a.map((v, i) => v - b[i]!);
  const nonzero = d.filter((x) => x !== 0);
  const zeros = n - nonzero.length;
  const m = nonzero.length;
  if (m === 0) return { n, zeros, statistic: null, p: null, method: null, z: null };
  const ranks = rankData(nonzero.map(Math.abs));
  let rPlus = 0;
  let rMinus = 0;
  for (let i = 0; i < m; i++) {
    if (nonzero[i]! > 0) rPlus += ranks[i]!;
    else rMinus += ranks[i]!;
  }
  const statistic = Math.min(rPlus, rMinus);
  const ties = tieCorrection(nonzero.map(Math.abs));
  let method: WilcoxonMethod;
  if (n > 50) method = 'asymptotic';
  else if (ties === 0 && zeros === 0) method = 'exact';
  else if (n <= 13) method = 'permutation';
  else method = 'asymptotic';
  if (method === 'exact') return { n, zeros, statistic, p: exactP(m, rPlus), method, z: null };
  if (method === 'permutation')
    return { n, zeros, statistic, p: signPatternP(ranks, rPlus), method, z: null };
  const mean = (m * (m + 1)) / 4;
  const se = Math.sqrt((m * (m + 1) * (2 * m + 1) - ties / 2) / 24);
  const z = (rPlus - mean) / se;
  return { n, zeros, statistic, p: Math.min(1, 2 * normalCdf(-Math.abs(z))), method, z: -Math.abs(z) };
}

/** Σ (t³ − t) over groups of equal values. */
function tieCorrection(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let sum = 0;
  for (const t of counts.values()) sum += t * t * t - t;
  return sum;
}

/** The null pmf of R+ for m untied ranks, built as SciPy's `_get_wilcoxon_distr` (halving each step). */
function wilcoxonPmf(m: number): Float64Array {
  let c = new Float64Array([1]);
  for (let k = 1; k <= m; k++) {
    const prev = c;
    c = new Float64Array((k * (k + 1)) / 2 + 1);
    const len = prev.length;
    for (let i = 0; i < len; i++) c[i] = prev[i]! * 0.5;
    for (let i = 0; i < len; i++) c[c.length - len + i]! += prev[i]! * 0.5;
  }
  return c;
}

function exactP(m: number, rPlus: number): number {
  const pmf = wilcoxonPmf(m);
  const mean = (m * (m + 1)) / 4;
  // SciPy: cdf(k) sums the lower tail up to the mean and is 1 − sf(k + 1) above it; sf likewise.
  const cdf = (k: number) =>
    k <= mean ? numpySum(pmf.subarray(0, k + 1)) : 1 - numpySum(pmf.subarray(k + 1));
  const sf = (k: number) => (k <= mean ? numpySum(pmf.subarray(k)) : 1 - numpySum(pmf.subarray(0, k)));
  return Math.min(1, Math.max(0, 2 * Math.min(sf(Math.floor(rPlus)), cdf(Math.ceil(rPlus)))));
}

/** Two-sided p of R+ over every sign pattern (SciPy's exact permutation test, γ = 100 ε |R+|). */
function signPatternP(ranks: readonly number[], rPlus: number): number {
  const m = ranks.length;
  const patterns = 2 ** m;
  const gamma = Math.abs(100 * Number.EPSILON * rPlus);
  let le = 0;
  let ge = 0;
  for (let mask = 0; mask < patterns; mask++) {
    let t = 0;
    for (let i = 0; i < m; i++) if (mask & (1 << i)) t += ranks[i]!;
    if (t <= rPlus + gamma) le++;
    if (t >= rPlus - gamma) ge++;
  }
  return Math.min(1, 2 * Math.min(le / patterns, ge / patterns));
}

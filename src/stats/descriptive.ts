import { CitegeistError } from '../core/index.js';
import { assertFiniteArray } from './validate.js';

/** Arithmetic mean; `null` for an empty sample. Kahan-compensated so long columns stay exact. */
export function mean(values: readonly number[]): number | null {
  assertFiniteArray('mean', 'values', values);
  return meanUnchecked(values);
}

/** Median (mean of the two middle values for an even count); `null` for an empty sample. */
export function median(values: readonly number[]): number | null {
  assertFiniteArray('median', 'values', values);
  if (values.length === 0) return null;
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/**
 * The q-quantile of an ascending sample by linear interpolation between order statistics
 * (Hyndman–Fan type 7, the default of NumPy `percentile` and R `quantile`). Used for bootstrap
 * percentile intervals. The caller guarantees `sorted` is ascending, finite and non-empty.
 */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0 || !(q >= 0 && q <= 1)) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `quantileSorted: needs a non-empty sample and 0 ≤ q ≤ 1, got ${sorted.length} values and q = ${q}.`,
      'Pass a sorted non-empty array and a probability between 0 and 1.',
    );
  }
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Descriptive summary of a score column; `null` entries are "not applicable" scores. */
export interface ColumnSummary {
  /** Number of non-null values the statistics are computed on. */
  n: number;
  /** Number of null (not applicable) entries, reported beside the statistics, never averaged as 0. */
  nullCount: number;
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
  /** Sample standard deviation (n − 1 denominator); null for n < 2. */
  sd: number | null;
}

/** Summarises a column, ignoring (but counting) nulls. NaN/Infinity are refused. */
export function summarize(values: readonly (number | null)[]): ColumnSummary {
  const present: number[] = [];
  let nullCount = 0;
  for (const v of values) {
    if (v === null) nullCount++;
    else present.push(v);
  }
  assertFiniteArray('summarize', 'values (non-null entries)', present);
  const n = present.length;
  if (n === 0) return { n, nullCount, mean: null, median: null, min: null, max: null, sd: null };
  const sorted = [...present].sort((a, b) => a - b);
  const m = meanUnchecked(present)!;
  let ss = 0;
  for (const v of present) ss += (v - m) * (v - m);
  return {
    n,
    nullCount,
    mean: m,
    median: quantileSorted(sorted, 0.5),
    min: sorted[0]!,
    max: sorted[n - 1]!,
    sd: n < 2 ? null : Math.sqrt(ss / (n - 1)),
  };
}

export function meanUnchecked(values: ArrayLike<number>): number | null {
  const n = values.length;
  if (n === 0) return null;
  let sum = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const y = values[i]! - c;
    const t = sum + y;
    c = t - sum - y;
    sum = t;
  }
  return sum / n;
}

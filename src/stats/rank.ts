import { assertFiniteArray } from './validate.js';

/**
 * Ranks 1..n with ties given the average of the ranks they span (SciPy `rankdata(method='average')`).
 * O(n log n): a native numeric sort of a copy, then for each value the range [lo, hi) of its equal
 * values by binary search; those positions hold ranks lo+1..hi, whose average is (lo + 1 + hi) / 2.
 */
export function rankData(x: readonly number[]): number[] {
  assertFiniteArray('rankData', 'x', x);
  const sorted = Float64Array.from(x).sort();
  return x.map((v) => (lowerBound(sorted, v) + 1 + upperBound(sorted, v)) / 2);
}

/** First index whose value is ≥ v. */
function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > v. */
function upperBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

import { assertFiniteArray } from './validate.js';

/**
 * Ranks 1..n with ties given the average of the ranks they span (SciPy `rankdata(method='average')`).
 * O(n log n).
 */
export function rankData(x: readonly number[]): number[] {
  assertFiniteArray('rankData', 'x', x);
  const n = x.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]!);
  const ranks = new Array<number>(n);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && x[order[end]!] === x[order[start]!]) end++;
    // positions start..end-1 (0-based) hold ranks start+1..end; their average:
    const avg = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]!] = avg;
    start = end;
  }
  return ranks;
}

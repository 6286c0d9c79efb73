import { describe, expect, it } from 'vitest';
import { exactMean, numpyMean, numpyMedian, numpySum } from './python-numerics.js';

// Expected values from NumPy 2.4 (`np.sum`, `np.mean`, `np.median`) and CPython 3.11
// (`statistics.mean`, built-in `sum`), printed with repr.
const a = Array.from({ length: 300 }, (_, i) => i / 7);
const b = Array.from({ length: 19 }, (_, i) => 1 / (i + 1));
const c = Array.from({ length: 1000 }, (_, i) => (i * 0.1) % 1);

describe('NumPy pairwise summation', () => {
  it.each([
    ['300 values (two 128-blocks and a rest)', a, 6407.142857142857, 21.357142857142858],
    ['19 values (8 accumulators and a tail)', b, 3.547739657143682, 0.18672313984966749],
    ['1,000 values', c, 450.0000000000028, 0.4500000000000028],
  ])('%s', (_, xs, sum, mean) => {
    expect(numpySum(xs)).toBe(sum);
    expect(numpyMean(xs)).toBe(mean);
  });

  it('differs from a left-to-right sum where NumPy does', () => {
    expect(c.reduce((s, x) => s + x, 0)).toBe(450.0); // Python's built-in sum gives the same
    expect(numpySum(c)).not.toBe(450.0);
  });

  it('medians as np.median; empty input is NaN as in NumPy', () => {
    expect(numpyMedian([5, 1, 4, 2])).toBe(3);
    expect(numpyMedian([0.1, 0.2])).toBe(0.15000000000000002);
    expect(numpyMedian([3, 1, 2])).toBe(2);
    expect(numpyMean([])).toBeNaN();
  });
});

describe('exactMean (statistics.mean)', () => {
  it.each([
    [[0.1, 0.2, 0.3], 0.2],
    [b, 0.18672313984966746], // NumPy's mean differs in the last digit
    [[2 / 3, 1 / 3, 1 / 7], 0.38095238095238093],
    [[0.5], 0.5],
    [[1e-310, 3e-310], 2e-310],
    [[-1, 1, 0.25], 0.08333333333333333],
  ])('mean of %j is %s', (xs, expected) => {
    expect(exactMean(xs)).toBe(expected);
  });
});

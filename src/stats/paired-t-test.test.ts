import { describe, expect, it } from 'vitest';
import { pairedTTest } from './paired-t-test.js';

describe('pairedTTest', () => {
  it('matches SciPy 1.17.1 ttest_rel', () => {
    const a = [5.1, 4.8, 6.0, 5.5, 5.9, 4.7, 5.2, 6.1];
    const b = [4.9, 4.9, 5.2, 5.0, 5.6, 4.5, 5.3, 5.4];
    const r = pairedTTest(a, b);
    expect(r.df).toBe(7);
    expect(r.t).toBeCloseTo(2.63314241653142, 12);
    expect(r.p).toBeCloseTo(0.033758110325228095, 12);
    expect(r.meanDifference).toBeCloseTo(0.3125, 12);
  });
  it('hand-computed: d = [1, 2, 3] gives t = 2/(1/√3) = 2√3, df 2, p = 1 − t/√(2 + t²)', () => {
    const r = pairedTTest([2, 4, 6], [1, 2, 3]);
    const t = 2 * Math.sqrt(3);
    expect(r.t).toBeCloseTo(t, 12);
    expect(r.p).toBeCloseTo(1 - t / Math.sqrt(2 + t * t), 12);
  });
  it.each([
    ['empty', [], [], { n: 0, meanDifference: null, t: null, df: null, p: null }],
    ['n = 1', [3], [1], { n: 1, meanDifference: 2, t: null, df: null, p: null }],
    ['identical samples', [1, 2, 3], [1, 2, 3], { n: 3, meanDifference: 0, t: null, df: 2, p: null }],
    [
      'constant non-zero difference',
      [2, 3, 4],
      [1, 2, 3],
      { n: 3, meanDifference: 1, t: Number.POSITIVE_INFINITY, df: 2, p: 0 },
    ],
  ])('%s', (_, a, b, expected) => {
    expect(pairedTTest(a, b)).toEqual(expected);
  });
  it.each([
    ['NaN', [1, Number.NaN], [1, 2], /argument "a" holds NaN at index 1/],
    ['Infinity', [1, 2], [Number.POSITIVE_INFINITY, 2], /argument "b" holds Infinity at index 0/],
    ['length mismatch', [1, 2], [1], /"a" has 2 values but "b" has 1/],
  ])('refuses %s', (_, a, b, message) => {
    expect(() => pairedTTest(a, b)).toThrow(message);
  });
});

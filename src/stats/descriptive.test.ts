import { describe, expect, it } from 'vitest';
import { mean, median, quantileSorted, summarize } from './descriptive.js';

describe('mean and median', () => {
  it.each([
    ['empty', [], null, null],
    ['single', [4], 4, 4],
    ['odd count', [3, 1, 2], 2, 2],
    ['even count', [4, 1, 3, 2], 2.5, 2.5],
    ['all tied', [7, 7, 7], 7, 7],
    ['skewed', [1, 2, 3, 4, 100], 22, 3],
    ['negative', [-1, -2.5, 0.5], -1, -1],
  ])('%s', (_, values, m, med) => {
    expect(mean(values)).toBe(m);
    expect(median(values)).toBe(med);
  });
  it('keeps precision on long columns (compensated sum)', () => {
    expect(mean(Array.from({ length: 100_000 }, () => 0.1))).toBe(0.1);
  });
  it.each([
    ['NaN', [1, Number.NaN], /mean: argument "values" holds NaN at index 1/],
    ['-Infinity', [Number.NEGATIVE_INFINITY], /holds -Infinity at index 0/],
  ])('refuses %s', (_, values, message) => {
    expect(() => mean(values)).toThrow(message);
    expect(() => median(values)).toThrow(message.source.replace('mean', 'median'));
  });
});

describe('quantileSorted (type 7, NumPy percentile)', () => {
  // NumPy 2.4.6: np.percentile([1, 2, 3, 4, 10], [2.5, 97.5]) = [1.1, 9.4]
  it.each([
    [[1, 2, 3, 4, 10], 0.025, 1.1],
    [[1, 2, 3, 4, 10], 0.975, 9.4],
    [[1, 2, 3, 4, 10], 0, 1],
    [[1, 2, 3, 4, 10], 1, 10],
    [[5], 0.3, 5],
  ])('%j at q = %d', (sorted, q, expected) => {
    expect(quantileSorted(sorted, q)).toBeCloseTo(expected, 12);
  });
  it.each([
    [[], 0.5],
    [[1, 2], 1.5],
    [[1, 2], Number.NaN],
  ])('refuses %j at q = %d', (sorted, q) => {
    expect(() => quantileSorted(sorted, q)).toThrow(/needs a non-empty sample and 0 ≤ q ≤ 1/);
  });
});

describe('summarize', () => {
  it.each([
    ['empty', [], { n: 0, nullCount: 0, mean: null, median: null, min: null, max: null, sd: null }],
    [
      'only nulls',
      [null, null],
      { n: 0, nullCount: 2, mean: null, median: null, min: null, max: null, sd: null },
    ],
    ['one value and a null', [3, null], { n: 1, nullCount: 1, mean: 3, median: 3, min: 3, max: 3, sd: null }],
    ['all tied', [2, 2, 2], { n: 3, nullCount: 0, mean: 2, median: 2, min: 2, max: 2, sd: 0 }],
    // sd: NumPy std([1, 2, 3, 4, 10], ddof=1) = 3.5355339059327378
    [
      'nulls ignored, not zero',
      [1, null, 2, 3, 4, null, 10],
      { n: 5, nullCount: 2, mean: 4, median: 3, min: 1, max: 10, sd: 3.5355339059327378 },
    ],
  ])('%s', (_, values, expected) => {
    expect(summarize(values)).toEqual(expected);
  });
  it('refuses NaN among the non-null values', () => {
    expect(() => summarize([1, null, Number.NaN])).toThrow(
      /summarize: argument "values \(non-null entries\)"/,
    );
  });
});

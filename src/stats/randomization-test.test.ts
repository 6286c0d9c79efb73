import { describe, expect, it } from 'vitest';
import { pairedRandomizationTest } from './randomization-test.js';

describe('pairedRandomizationTest', () => {
  it.each([
    // d = [1, 2, 3]: the 8 sign patterns give sums ±6, ±4, ±2, 0, 0; |sum| ≥ 6 in 2 of 8
    ['d = [1, 2, 3]', [2, 4, 6], [1, 2, 3], 0.25],
    // d = [1, -1, 2]: sums 2, 4, 0, 2, -2, 0, -4, -2 → |sum| ≥ 2 in 6 of 8
    ['d = [1, -1, 2]', [1, 0, 2], [0, 1, 0], 0.75],
    ['all differences zero', [1, 2, 3], [1, 2, 3], 1],
    ['n = 1', [3], [1], 1],
  ])('exact enumeration: %s', (_, a, b, p) => {
    const r = pairedRandomizationTest(a, b);
    expect(r.exact).toBe(true);
    expect(r.p).toBeCloseTo(p, 15);
  });
  it('Monte Carlo p uses the +1 correction and is deterministic for a seed', () => {
    const a = Array.from({ length: 40 }, (_, i) => (i % 7) / 7 + 0.1);
    const b = Array.from({ length: 40 }, (_, i) => (i % 5) / 5);
    const r1 = pairedRandomizationTest(a, b, { iterations: 2000, seed: 3 });
    const r2 = pairedRandomizationTest(a, b, { iterations: 2000, seed: 3 });
    expect(r1).toEqual(r2);
    expect(r1.exact).toBe(false);
    // p·(iterations + 1) − 1 is the integer number of hits
    const hits = r1.p! * 2001 - 1;
    expect(Math.abs(hits - Math.round(hits))).toBeLessThan(1e-9);
  });
  it('never returns p = 0 by Monte Carlo, even for a huge effect', () => {
    const a = Array.from({ length: 50 }, () => 10);
    const b = Array.from({ length: 50 }, () => 0);
    expect(pairedRandomizationTest(a, b, { iterations: 999 }).p).toBe(1 / 1000);
  });
  it('agrees with the t-test p roughly on a large sample', () => {
    const a = Array.from({ length: 60 }, (_, i) => Math.sin(i) + 0.3);
    const b = Array.from({ length: 60 }, (_, i) => Math.cos(i * 1.3));
    const r = pairedRandomizationTest(a, b, { iterations: 20_000, seed: 11 });
    // SciPy 1.17.1 ttest_rel on these values: t = 2.3649, p = 0.02134; the permutation test of the
    // mean difference approximates the same null distribution (Monte Carlo s.e. ≈ 0.001 here)
    expect(Math.abs(r.p! - 0.02134392690696729)).toBeLessThan(0.005);
  });
  it('accepts a custom statistic (median difference)', () => {
    const r = pairedRandomizationTest([2, 4, 6], [1, 2, 3], {
      statistic: (d) => [...d].sort((x, y) => x - y)[1]!,
    });
    expect(r.observed).toBe(2);
    expect(r.exact).toBe(true);
  });
  it('returns null p for empty input', () => {
    expect(pairedRandomizationTest([], [])).toMatchObject({ n: 0, p: null, observed: null });
  });
  it.each([
    ['NaN', [Number.NaN], [1], {}, /argument "a" holds NaN at index 0/],
    ['length mismatch', [1], [1, 2], {}, /"a" has 1 values but "b" has 2/],
    ['iterations 0', [1], [2], { iterations: 0 }, /option "iterations" is 0/],
    ['non-finite statistic', [1, 2], [0, 0], { statistic: () => Number.NaN }, /statistic returned NaN/],
  ])('refuses %s', (_, a, b, opts, message) => {
    expect(() => pairedRandomizationTest(a, b, opts)).toThrow(message);
  });
});

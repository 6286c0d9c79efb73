import { describe, expect, it } from 'vitest';
import { bootstrapCI, bootstrapPairedCI } from './bootstrap.js';
import { spearman } from './correlation.js';
import { meanUnchecked, median } from './descriptive.js';
import { createRandom } from './random.js';

function normalSample(n: number, seed: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  });
}

describe('bootstrapCI', () => {
  const sample = normalSample(400, 1);
  it('is deterministic for a seed and depends on it', () => {
    const a = bootstrapCI(sample, undefined, { iterations: 2000, seed: 5 });
    expect(bootstrapCI(sample, undefined, { iterations: 2000, seed: 5 })).toEqual(a);
    expect(bootstrapCI(sample, undefined, { iterations: 2000, seed: 6 }).lower).not.toBe(a.lower);
  });
  it('gives a mean interval close to the normal-theory one (±1.96·s/√n, within 10%)', () => {
    const r = bootstrapCI(sample, undefined, { seed: 2 });
    const m = sample.reduce((s, v) => s + v, 0) / sample.length;
    const sd = Math.sqrt(sample.reduce((s, v) => s + (v - m) ** 2, 0) / (sample.length - 1));
    const half = (1.96 * sd) / Math.sqrt(sample.length);
    expect(r.estimate).toBeCloseTo(m, 12);
    expect(r.lower!).toBeLessThan(m);
    expect(r.upper!).toBeGreaterThan(m);
    expect(Math.abs((r.upper! - r.lower!) / (2 * half) - 1)).toBeLessThan(0.1);
    expect(r).toMatchObject({ iterations: 10_000, confidence: 0.95, seed: 2, undefinedResamples: 0 });
  });
  it('computes the mean (the default) exactly as a general statistic would, without building resamples', () => {
    const generalMean = (xs: readonly number[]) => meanUnchecked(xs);
    for (const xs of [sample, [0, 0.5, 1, 1, 0.25], [3], []]) {
      expect(bootstrapCI(xs, undefined, { iterations: 500, seed: 9 })).toEqual(
        bootstrapCI(xs, generalMean, { iterations: 500, seed: 9 }),
      );
    }
  });
  it('resamples a large sample with few distinct values by counts: the same interval as drawing rows', () => {
    // 20,000 scores on 7 levels (a citation metric's shape).
    const levels = [0, 0.25, 1 / 3, 0.5, 2 / 3, 0.75, 1];
    const random = createRandom(3);
    const xs = Array.from({ length: 20_000 }, () => levels[Math.floor(random() ** 0.5 * 7)]!);
    const generalMean = (s: readonly number[]) => meanUnchecked(s);
    const byCounts = bootstrapCI(xs, undefined, { iterations: 2000, seed: 4 });
    const byRows = bootstrapCI(xs, generalMean, { iterations: 2000, seed: 4 });
    expect(byCounts.estimate).toBe(byRows.estimate);
    const half = (byRows.upper! - byRows.lower!) / 2;
    expect(half).toBeGreaterThan(0);
    // Two independent 2,000-resample runs: the bounds agree within Monte Carlo error.
    expect(Math.abs(byCounts.lower! - byRows.lower!)).toBeLessThan(0.1 * half);
    expect(Math.abs(byCounts.upper! - byRows.upper!)).toBeLessThan(0.1 * half);
    expect(bootstrapCI(xs, undefined, { iterations: 2000, seed: 4 })).toEqual(byCounts);
    expect(bootstrapCI(xs, undefined, { iterations: 2000, seed: 5 }).lower).not.toBe(byCounts.lower);
    // A constant sample stays constant.
    expect(bootstrapCI(new Array(5000).fill(0.5), undefined, { iterations: 100 })).toMatchObject({
      lower: 0.5,
      upper: 0.5,
    });
  });
  it('narrows with lower confidence', () => {
    const wide = bootstrapCI(sample, undefined, { iterations: 2000 });
    const narrow = bootstrapCI(sample, undefined, { iterations: 2000, confidence: 0.5 });
    expect(narrow.upper! - narrow.lower!).toBeLessThan(wide.upper! - wide.lower!);
  });
  it.each([
    ['empty', [], { estimate: null, lower: null, upper: null }],
    ['single value', [3], { estimate: 3, lower: 3, upper: 3 }],
    ['all tied', [2, 2, 2, 2], { estimate: 2, lower: 2, upper: 2 }],
  ])('%s', (_, values, expected) => {
    expect(bootstrapCI(values, undefined, { iterations: 100 })).toMatchObject(expected);
  });
  it('takes any statistic (median)', () => {
    const r = bootstrapCI(sample, median, { iterations: 500 });
    expect(r.estimate).toBe(median(sample));
  });
  it.each([
    ['NaN sample', [1, Number.NaN], {}, /bootstrapCI: argument "samples" holds NaN at index 1/],
    ['confidence 1', [1, 2], { confidence: 1 }, /option "confidence" is 1; it must be a number in \(0, 1\)/],
    ['fractional iterations', [1, 2], { iterations: 10.5 }, /option "iterations" is 10.5/],
    ['fractional seed', [1, 2], { seed: 0.5 }, /option "seed" is 0.5/],
  ])('refuses %s', (_, values, opts, message) => {
    expect(() => bootstrapCI(values, undefined, opts)).toThrow(message);
  });
  it('refuses a statistic that returns NaN', () => {
    expect(() => bootstrapCI([1, 2], () => Number.NaN)).toThrow(/statistic returned NaN/);
  });
});

describe('bootstrapPairedCI', () => {
  const x = normalSample(200, 3);
  const noise = normalSample(200, 4);
  const y = x.map((v, i) => v + noise[i]!);
  it('keeps pairs together: a Spearman CI around the estimate, deterministic', () => {
    const r = bootstrapPairedCI(x, y, spearman, { iterations: 300, seed: 9 });
    expect(r.estimate).toBe(spearman(x, y));
    expect(r.lower!).toBeLessThan(r.estimate!);
    expect(r.upper!).toBeGreaterThan(r.estimate!);
    expect(r.lower!).toBeGreaterThan(0.5); // true ρ ≈ 0.69 for y = x + N(0, 1)
    expect(bootstrapPairedCI(x, y, spearman, { iterations: 300, seed: 9 })).toEqual(r);
  });
  it('counts resamples on which the statistic is not applicable', () => {
    // with n = 2 a resample draws the same pair twice half the time: zero variance → null
    const r = bootstrapPairedCI([1, 2], [1, 2], spearman, { iterations: 1000 });
    expect(r.undefinedResamples).toBeGreaterThan(400);
    expect(r.undefinedResamples).toBeLessThan(600);
    expect(r.lower).toBeCloseTo(1, 12);
  });
  it.each([
    ['empty', [], []],
    ['all tied', [1, 1, 1], [1, 2, 3]],
  ])('returns null bounds when the statistic is not applicable (%s)', (_, a, b) => {
    expect(bootstrapPairedCI(a, b, spearman, { iterations: 50 })).toMatchObject({
      estimate: null,
      lower: null,
      upper: null,
    });
  });
  it('refuses a length mismatch', () => {
    expect(() => bootstrapPairedCI([1, 2], [1], spearman)).toThrow(/"x" has 2 values but "y" has 1/);
  });
});

import { describe, expect, it } from 'vitest';
import { binomialVariate, gammaVariate, normalVariate } from './binomial.js';
import { createRandom } from './random.js';
import { logGamma } from './special-functions.js';

/** Exact Binomial(n, p) pmf, computed in log space (no underflow for large n). */
function binomialPmf(n: number, p: number): number[] {
  const logChoose = (k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
  return Array.from({ length: n + 1 }, (_, k) =>
    Math.exp(logChoose(k) + k * Math.log(p) + (n - k) * Math.log1p(-p)),
  );
}

/** Pearson chi-square of counts against expected probabilities, bins with expectation < 5 pooled. */
function chiSquare(counts: number[], probabilities: number[], draws: number): { stat: number; df: number } {
  let stat = 0;
  let df = -1;
  let pooledObs = 0;
  let pooledExp = 0;
  for (let k = 0; k < probabilities.length; k++) {
    pooledObs += counts[k] ?? 0;
    pooledExp += probabilities[k]! * draws;
    if (pooledExp >= 5) {
      stat += (pooledObs - pooledExp) ** 2 / pooledExp;
      df++;
      pooledObs = 0;
      pooledExp = 0;
    }
  }
  if (pooledExp > 0) stat += (pooledObs - pooledExp) ** 2 / Math.max(pooledExp, 1e-9);
  return { stat, df: df + 1 };
}

describe('exact samplers', () => {
  it('normal: mean 0, variance 1', () => {
    const random = createRandom(1);
    const xs = Array.from({ length: 40_000 }, () => normalVariate(random));
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
    expect(Math.abs(m)).toBeLessThan(5 / Math.sqrt(xs.length));
    expect(Math.abs(v - 1)).toBeLessThan(0.05);
  });

  it.each([0.4, 1, 3.5, 200, 20_000])('gamma(%d): mean and variance equal the shape', (shape) => {
    const random = createRandom(2);
    const xs = Array.from({ length: 30_000 }, () => gammaVariate(random, shape));
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
    expect(Math.abs(m - shape)).toBeLessThan(5 * Math.sqrt(shape / xs.length));
    expect(Math.abs(v / shape - 1)).toBeLessThan(0.06);
  });

  // Chi-square critical values at 0.999 would be ~ df + 4.3·√(2·df); 6·√(2·df) leaves room.
  it.each([
    [10, 0.3],
    [50, 0.3],
    [200, 0.02],
    [1000, 0.5],
    [2000, 0.93],
    [400, 0.1],
    [5000, 0.3],
    [40_000, 0.5],
  ])('binomial(%d, %d) matches the exact pmf (chi-square)', (n, p) => {
    const random = createRandom(n);
    const draws = 40_000;
    const counts = new Array<number>(n + 1).fill(0);
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const x = binomialVariate(random, n, p);
      if (Number.isInteger(x) && x >= 0 && x <= n) counts[x]!++;
      else outside++;
    }
    expect(outside).toBe(0);
    const { stat, df } = chiSquare(counts, binomialPmf(n, p), draws);
    expect(df).toBeGreaterThan(3);
    expect(stat).toBeLessThan(df + 6 * Math.sqrt(2 * df));
  });

  it('binomial: large n keeps the mean and variance; p of 0 and 1 are certain', () => {
    const random = createRandom(9);
    for (const [n, p] of [
      [45_000, 0.1],
      [45_000, 0.999],
      [1_000_000, 0.37],
    ] as const) {
      const xs = Array.from({ length: 20_000 }, () => binomialVariate(random, n, p));
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
      const variance = n * p * (1 - p);
      expect(Math.abs(m - n * p)).toBeLessThan(5 * Math.sqrt(variance / xs.length));
      expect(Math.abs(v / variance - 1)).toBeLessThan(0.06);
    }
    expect(binomialVariate(random, 500, 0)).toBe(0);
    expect(binomialVariate(random, 500, 1)).toBe(500);
    expect(binomialVariate(random, 0, 0.5)).toBe(0);
  });
});

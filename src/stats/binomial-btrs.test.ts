import { describe, expect, it } from 'vitest';
import { binomialVariateFast } from './binomial-btrs.js';
import { createRandom } from './random.js';
import { logGamma } from './special-functions.js';

const pmf = (n: number, p: number, k: number) =>
  Math.exp(
    logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log(1 - p),
  );

describe('binomialVariateFast (BTRS)', () => {
  it.each([
    [60, 0.3],
    [200, 0.5],
    [1000, 0.85],
  ])('Binomial(%d, %d): 200,000 draws fit the exact pmf (χ² below the 0.999 quantile)', (n, p) => {
    const random = createRandom(5);
    const draws = 200_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < draws; i++) {
      const k = binomialVariateFast(random, n, p);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    // cells with expected count ≥ 20, the rest pooled into one
    let chi = 0;
    let cells = 0;
    let restObserved = 0;
    let restExpected = 0;
    for (let k = 0; k <= n; k++) {
      const e = draws * pmf(n, p, k);
      const o = counts.get(k) ?? 0;
      if (e >= 20) {
        chi += (o - e) ** 2 / e;
        cells++;
      } else {
        restObserved += o;
        restExpected += e;
      }
    }
    if (restExpected > 0) {
      chi += (restObserved - restExpected) ** 2 / restExpected;
      cells++;
    }
    // the 0.999 quantile of χ² with d degrees of freedom is below d + 4.5√(2d) + 10 for these d
    const d = cells - 1;
    expect(chi).toBeLessThan(d + 4.5 * Math.sqrt(2 * d) + 10);
  });
  it('edge probabilities and small means', () => {
    const random = createRandom(1);
    expect(binomialVariateFast(random, 100, 0)).toBe(0);
    expect(binomialVariateFast(random, 100, 1)).toBe(100);
    const k = binomialVariateFast(random, 100, 0.01);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(k).toBeLessThanOrEqual(100);
  });
});

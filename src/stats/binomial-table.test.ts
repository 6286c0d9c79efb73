import { describe, expect, it } from 'vitest';
import { drawHalfBinomial, halfBinomialTable } from './binomial-table.js';
import { createRandom } from './random.js';

describe('halfBinomialTable', () => {
  it('is the exact CDF of Binomial(n, ½) for small n', () => {
    for (const n of [1, 2, 7, 10, 31]) {
      const t = halfBinomialTable(n);
      expect(t.lo).toBe(0);
      let c = 1;
      let run = 0;
      for (let k = 0; k <= n; k++) {
        run += c / 2 ** n;
        expect(Math.abs(t.cdf[k]! - run)).toBeLessThan(1e-14);
        c = (c * (n - k)) / (k + 1);
      }
    }
  });

  it('keeps mode ± 9.5 σ of a large n, the CDF at the mean ½ (symmetry) and the tails below 1e-18', () => {
    const n = 50_000;
    const t = halfBinomialTable(n);
    const sd = Math.sqrt(n) / 2;
    expect(t.lo).toBeGreaterThan(n / 2 - 10 * sd);
    // P(X ≤ n/2) = ½ + P(X = n/2)/2, P(X = n/2) ≈ 1/√(π n/2) (Stirling).
    const atMean = t.cdf[n / 2 - t.lo]!;
    expect(Math.abs(atMean - (0.5 + 0.5 / Math.sqrt((Math.PI * n) / 2)))).toBeLessThan(1e-6);
    expect(t.cdf[0]!).toBeLessThan(1e-18);
  });

  it('draws with the tabulated frequencies (chi-square, 200,000 draws of Binomial(40, ½))', () => {
    const t = halfBinomialTable(40);
    const random = createRandom(7);
    const seen = new Float64Array(41);
    const draws = 200_000;
    for (let i = 0; i < draws; i++) seen[drawHalfBinomial(random, t)]!++;
    let chi = 0;
    let cells = 0;
    for (let k = 0; k <= 40; k++) {
      const p = t.cdf[k]! - (k > 0 ? t.cdf[k - 1]! : 0);
      if (p * draws < 5) continue;
      chi += (seen[k]! - p * draws) ** 2 / (p * draws);
      cells++;
    }
    // 99.9% point of chi-square with (cells − 1) ≈ 24 degrees of freedom is 51.2.
    expect(cells).toBeGreaterThan(20);
    expect(chi).toBeLessThan(51.2);
  });
});

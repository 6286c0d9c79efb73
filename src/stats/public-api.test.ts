import { describe, expect, it } from 'vitest';
import * as citegeist from '../index.js';

// Each statistic is called through the package entry and must give the value worked out by hand
// (or by SciPy), not merely be a function.
describe('package entry: the statistics work through it', () => {
  const x = [1, 2, 3, 4, 5];
  const y = [2, 1, 4, 3, 5];

  // SciPy 1.17.1 spearmanr([1, 2, 2, 3], [1, 3, 2, 4])
  it('spearman from the entry computes (ties averaged)', () => {
    expect(citegeist.spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(0.9486832980505138, 12);
  });

  it('pearson, kendallTauB and kendallTauC of two orderings one swap apart in two places', () => {
    // Σdxdy = 8, Σdx² = Σdy² = 10 → r = 0.8; 8 concordant and 2 discordant pairs of 10 → τ = 0.6.
    expect(citegeist.pearson(x, y)).toBeCloseTo(0.8, 12);
    expect(citegeist.kendallTauB(x, y)).toBeCloseTo(0.6, 12);
    expect(citegeist.kendallTauC(x, y)).toBeCloseTo(0.6, 12);
  });

  it('rankData averages ties; mean, median and summarize describe a sample', () => {
    expect(citegeist.rankData([3, 1, 3, 2])).toEqual([3.5, 1, 3.5, 2]);
    expect(citegeist.mean([1, 2, 3, 4])).toBe(2.5);
    expect(citegeist.median([1, 5, 2, 8])).toBe(3.5);
    expect(citegeist.summarize([1, 2, 3, 4])).toMatchObject({ n: 4, mean: 2.5, median: 2.5, min: 1, max: 4 });
    expect(citegeist.summarize([1, 2, 3, 4]).sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
  });

  it('pairedTTest: differences −0.5, −0.1, −0.9, −0.2, −0.8 give t = −√10 on 4 df', () => {
    const t = citegeist.pairedTTest([1, 2, 3, 4, 5], [1.5, 2.1, 3.9, 4.2, 5.8]);
    expect(t.meanDifference).toBeCloseTo(-0.5, 12);
    expect(t.t).toBeCloseTo(-Math.sqrt(10), 10);
    expect(t.df).toBe(4);
    // scipy.stats.ttest_rel(...).pvalue
    expect(t.p).toBeCloseTo(0.034109423167409635, 8);
  });

  it('the bootstraps and the randomization test give the answers their degenerate inputs force', () => {
    const flat = citegeist.bootstrapCI([2, 2, 2, 2], undefined, { seed: 1, iterations: 200 });
    expect([flat.estimate, flat.lower, flat.upper]).toEqual([2, 2, 2]);
    const linear = citegeist.bootstrapPairedCI(
      [1, 2, 3, 4],
      [2, 4, 6, 8],
      (a, b) => citegeist.pearson(a, b) ?? 0,
      {
        seed: 1,
        iterations: 200,
      },
    );
    expect(linear.lower).toBeCloseTo(1, 12);
    expect(linear.upper).toBeCloseTo(1, 12);
    // Identical systems: every sign flip gives the observed 0, so p = 1 (exact: 2³ flips).
    expect(citegeist.pairedRandomizationTest([1, 2, 3], [1, 2, 3], { seed: 1 })).toMatchObject({
      observed: 0,
      p: 1,
      exact: true,
    });
  });

  it('krippendorffAlpha is 1 for perfect agreement; createRandom repeats for a seed', () => {
    expect(
      citegeist.krippendorffAlpha(
        [
          [1, 2, 3, 1],
          [1, 2, 3, 1],
        ],
        'nominal',
      ),
    ).toBe(1);
    const a = citegeist.createRandom(7);
    const b = citegeist.createRandom(7);
    const draws = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(draws);
    expect(new Set(draws).size).toBe(3);
    for (const d of draws) expect(d >= 0 && d < 1).toBe(true);
  });

  it('fitPartialCreditModel is reachable from the entry and refuses a bad option with its code', () => {
    expect(() =>
      citegeist.fitPartialCreditModel([], { categories: [1, 2, 3], method: 'bogus' as 'mml' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

import { describe, expect, it } from 'vitest';
import { pearson, spearman } from './correlation.js';
import { fitPartialCreditModel, type PcmRating } from './partial-credit-model.js';
import { partialCreditExpectedScore, partialCreditProbabilities } from './partial-credit-probabilities.js';
import { createRandom } from './random.js';

const CATEGORIES = [1, 2, 3, 4, 5];
const THRESHOLDS = [-2, -0.7, 0.6, 2.1]; // Σ = 0, as the model is identified

/** Ratings of every item by every rater, drawn from the model itself (seeded). */
function simulate(items: number, severities: readonly number[], sd: number, seed: number) {
  const random = createRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const theta = Array.from({ length: items }, () => sd * normal());
  const ratings: PcmRating[] = [];
  theta.forEach((t, i) => {
    severities.forEach((l, r) => {
      const p = partialCreditProbabilities(t, l, THRESHOLDS);
      let u = random();
      let k = 0;
      while (k < p.length - 1 && u >= p[k]!) u -= p[k++]!;
      ratings.push({ item: `claim-${i}`, rater: `annotator-${r}`, score: CATEGORIES[k]! });
    });
  });
  return { theta, ratings };
}

const maxAbsError = (got: readonly number[], want: readonly number[]) =>
  Math.max(...got.map((g, k) => Math.abs(g - want[k]!)));

describe('partialCreditProbabilities', () => {
  it('matches the model formula by hand (θ = 1, λ = 0.5, δ = [−1, 1])', () => {
    // numerators exp(0), exp(0.5 + 1), exp(1.5 + (0.5 − 1)) = 1, e^1.5, e^1
    const z = 1 + Math.exp(1.5) + Math.exp(1);
    const p = partialCreditProbabilities(1, 0.5, [-1, 1]);
    [1 / z, Math.exp(1.5) / z, Math.exp(1) / z].forEach((want, k) => {
      expect(p[k]).toBeCloseTo(want, 14);
    });
    expect(partialCreditExpectedScore(1, 0.5, [-1, 1])).toBeCloseTo(
      (Math.exp(1.5) + 2 * Math.exp(1)) / z,
      14,
    );
  });
  it.each([
    [1e6, 4],
    [-1e6, 0],
  ])('stays finite for extreme θ = %d (all mass on category %d)', (theta, k) => {
    const p = partialCreditProbabilities(theta, 0, THRESHOLDS);
    expect(p.every(Number.isFinite)).toBe(true);
    expect(p[k]).toBe(1);
  });
});

describe('fitPartialCreditModel on simulated data with known parameters', () => {
  const severities = [-0.6, -0.3, 0, 0.3, 0.6];
  // 1,500 items × 5 raters: λ and δ have sampling RMSE ≈ 0.03–0.07 logits at this size
  // (docs/partial-credit-model.md), so a 0.15 tolerance is a real check, not luck.
  const { theta, ratings } = simulate(1500, severities, 1.5, 1);
  const fit = fitPartialCreditModel(ratings, { categories: CATEGORIES });

  it('MML recovers rater severities and thresholds within 0.15 logits (max abs error)', () => {
    expect(fit.converged).toBe(true);
    expect(fit.method).toBe('mml');
    expect(
      maxAbsError(
        fit.raterSeverity.map((r) => r.severity),
        severities,
      ),
    ).toBeLessThan(0.15);
    expect(maxAbsError(fit.thresholds, THRESHOLDS)).toBeLessThan(0.15);
    expect(fit.population!.sd).toBeGreaterThan(1.35);
    expect(fit.population!.sd).toBeLessThan(1.65);
  });
  it('honours the identification constraints Σλ = 0, Σδ = 0', () => {
    expect(fit.raterSeverity.reduce((s, r) => s + r.severity, 0)).toBeCloseTo(0, 10);
    expect(fit.thresholds.reduce((s, d) => s + d, 0)).toBeCloseTo(0, 10);
  });
  it('orders items as the truth does (with 5 raters per item, reliability caps r near 0.93)', () => {
    const measures = fit.itemMeasures.map((m) => m.measure);
    expect(spearman(measures, theta)!).toBeGreaterThan(0.9);
    expect(pearson(measures, theta)!).toBeGreaterThan(0.9);
    expect(fit.itemMeasures[0]).toMatchObject({ item: 'claim-0', ratings: 5 });
  });
  it('flags items rated all-max or all-min and keeps their measures finite', () => {
    const extreme = fit.itemMeasures.filter((m) => m.extreme !== null);
    expect(extreme.length).toBeGreaterThan(0);
    for (const m of extreme) {
      expect(Number.isFinite(m.measure)).toBe(true);
      expect(Math.sign(m.measure)).toBe(m.extreme === 'max' ? 1 : -1);
    }
  });
  it('JML (method: "jml") shows its known outward bias with 5 ratings per item', () => {
    // on the first 300 items (JML's bias does not shrink with more items: it comes from the 5 ratings each)
    const jml = fitPartialCreditModel(ratings.slice(0, 1500), { categories: CATEGORIES, method: 'jml' });
    expect(jml.converged).toBe(true);
    const spread = (d: readonly number[]) => d[d.length - 1]! - d[0]!;
    // truth 4.1 logits; MML lands close, JML spreads the thresholds by about a logit (20-seed mean 1.1)
    expect(Math.abs(spread(fit.thresholds) - 4.1)).toBeLessThan(0.2);
    expect(spread(jml.thresholds) - 4.1).toBeGreaterThan(0.5);
  });
});

describe('fitPartialCreditModel item recovery with 10 raters per item', () => {
  // 300 items × 10 raters: over seeds 1–20, r(EAP, θ) ≥ 0.956 and the max abs error of λ and δ ≤ 0.22
  it('item measures correlate > 0.95 with the truth; severities and thresholds within 0.3 logits', () => {
    const severities = [-0.8, -0.5, -0.3, -0.1, 0, 0.1, 0.2, 0.3, 0.5, 0.6];
    const { theta, ratings } = simulate(300, severities, 1.5, 2);
    const fit = fitPartialCreditModel(ratings, { categories: CATEGORIES });
    expect(
      pearson(
        fit.itemMeasures.map((m) => m.measure),
        theta,
      )!,
    ).toBeGreaterThan(0.95);
    expect(
      maxAbsError(
        fit.raterSeverity.map((r) => r.severity),
        severities,
      ),
    ).toBeLessThan(0.3);
    expect(maxAbsError(fit.thresholds, THRESHOLDS)).toBeLessThan(0.3);
  });
});

describe('fitPartialCreditModel edge cases', () => {
  it('is deterministic (no randomness in the fit)', () => {
    const { ratings } = simulate(40, [-0.5, 0, 0.5], 1, 3);
    expect(fitPartialCreditModel(ratings, { categories: CATEGORIES })).toEqual(
      fitPartialCreditModel(ratings, { categories: CATEGORIES }),
    );
  });
  // One rating per item does not identify the item spread under MML (EM drifts, converged: false);
  // the estimates must still be finite, and JML converges.
  it.each(['mml', 'jml'] as const)(
    '%s: an unused category and a single rater still give finite estimates',
    (method) => {
      const ratings: PcmRating[] = [1, 2, 2, 3, 3, 3, 4, 4].map((score, i) => ({
        item: i,
        rater: 'only',
        score,
      }));
      const fit = fitPartialCreditModel(ratings, { categories: CATEGORIES, method, maxIterations: 100 });
      expect(fit.converged).toBe(method === 'jml');
      expect(fit.raterSeverity).toEqual([
        expect.objectContaining({ rater: 'only', severity: 0, ratings: 8 }),
      ]);
      expect(fit.thresholds.every(Number.isFinite)).toBe(true);
      expect(fit.thresholds[3]).toBeGreaterThan(fit.thresholds[2]!); // no 5s observed: the last step is hard
      expect(
        fit.itemMeasures.every((m) => Number.isFinite(m.measure) && Number.isFinite(m.standardError)),
      ).toBe(true);
    },
  );
  it('stops at maxIterations and says it did not converge', () => {
    const { ratings } = simulate(30, [-0.5, 0.5], 1, 4);
    const fit = fitPartialCreditModel(ratings, { categories: CATEGORIES, maxIterations: 2 });
    expect(fit).toMatchObject({ converged: false, iterations: 2 });
  });
  it.each([
    ['no ratings', [], { categories: CATEGORIES }, /"ratings" must be a non-empty array/],
    [
      'a score outside the categories',
      [
        { item: 'a', rater: 'r', score: 3 },
        { item: 'b', rater: 'r', score: 6 },
      ],
      { categories: CATEGORIES },
      /holds score 6 at index 1; it is not one of the categories \[1,2,3,4,5\]/,
    ],
    [
      'a NaN score',
      [{ item: 'a', rater: 'r', score: Number.NaN }],
      { categories: CATEGORIES },
      /holds score NaN at index 0/,
    ],
    [
      'a missing item id',
      [{ rater: 'r', score: 1 } as unknown as PcmRating],
      { categories: CATEGORIES },
      /holds item undefined at index 0/,
    ],
    [
      'unordered categories',
      [{ item: 'a', rater: 'r', score: 1 }],
      { categories: [1, 3, 2] },
      /ascending order/,
    ],
    [
      'one category',
      [{ item: 'a', rater: 'r', score: 1 }],
      { categories: [1] },
      /at least two finite scores/,
    ],
    [
      'a bad method',
      [{ item: 'a', rater: 'r', score: 1 }],
      { categories: CATEGORIES, method: 'cml' as 'mml' },
      /option "method" is "cml"/,
    ],
    [
      'a zero ridge',
      [{ item: 'a', rater: 'r', score: 1 }],
      { categories: CATEGORIES, ridge: 0 },
      /option "ridge" is 0; it must be a positive finite number/,
    ],
  ])('refuses %s', (_, ratings, options, message) => {
    expect(() => fitPartialCreditModel(ratings as PcmRating[], options)).toThrow(message);
  });
});

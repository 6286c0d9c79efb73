import { describe, expect, it } from 'vitest';
import { judgeVariance } from './judge-variance.js';
import { createRandom } from './random.js';
import { type RepeatedScores, rankStability } from './rank-stability.js';

/**
 * A seeded noisy fake judge: each item has a true pass probability per system; the judge says
 * pass (1), partial (0.5) or fail (0) by comparing the probability with a uniform draw blurred by its
 * own noise, so repeats of one item can disagree.
 */
function noisyJudge(
  seed: number,
  quality: Record<string, number>,
  items = 120,
  repeats = 3,
  noise = 0.25,
): RepeatedScores[] {
  const random = createRandom(seed);
  const difficulty = Array.from({ length: items }, () => random() - 0.5);
  return Object.entries(quality).map(([label, q]) => ({
    label,
    items: new Map(
      difficulty.map((d, i) => {
        const truth = Math.min(1, Math.max(0, q - 0.6 * d));
        const judged = Array.from({ length: repeats }, () => {
          const seen = truth + noise * (random() - 0.5) * 2;
          return seen > 0.66 ? 1 : seen > 0.33 ? 0.5 : 0;
        });
        return [`item${i}`, judged];
      }),
    ),
  }));
}

describe('judgeVariance', () => {
  it('measures the within-item spread and the share of changed verdicts', () => {
    expect(judgeVariance([[1, 1, 1], [0, 1], [0.5], [0, 0]])).toEqual({
      items: 3,
      repeats: 3,
      withinItemSd: Math.SQRT1_2 / 3,
      verdictChangeShare: 1 / 3,
    });
    const noisy = judgeVariance(noisyJudge(1, { a: 0.6 })[0]!.items.values());
    const quiet = judgeVariance(noisyJudge(1, { a: 0.6 }, 120, 3, 0)[0]!.items.values());
    expect(quiet).toMatchObject({ withinItemSd: 0, verdictChangeShare: 0 });
    expect(noisy.verdictChangeShare).toBeGreaterThan(0.2);
  });
});

describe('rankStability with a seeded noisy fake judge', () => {
  const systems = noisyJudge(7, { strong: 0.8, close: 0.77, weak: 0.35 });

  it('a clearly worse system keeps its rank; two close ones swap', () => {
    const s = rankStability(systems, { resamples: 300, seed: 2 });
    const by = Object.fromEntries(s.systems.map((x) => [x.label, x]));
    expect(by.weak).toMatchObject({ rank: 3, keepsRank: 1 });
    expect(by.strong!.keepsRank).toBeLessThan(0.95);
    expect(by.close!.keepsRank).toBeLessThan(0.95);
    expect(s.items).toBe(120);
  });

  it('a large difference stays significant whatever the judge draws; a small one does not', () => {
    const s = rankStability(systems, { resamples: 300, seed: 2 });
    const pair = (a: string, b: string) => s.pairs.find((p) => p.a === a && p.b === b)!;
    expect(pair('strong', 'weak')).toMatchObject({
      significant: true,
      significantShare: 1,
      dependsOnJudge: false,
    });
    expect(pair('strong', 'close').significantShare).toBeLessThan(0.95);
  });

  it('with a judge that never disagrees with itself, nothing depends on the judge', () => {
    const quiet = noisyJudge(7, { strong: 0.8, close: 0.77, weak: 0.35 }, 120, 3, 0);
    const s = rankStability(quiet, { resamples: 200, seed: 2 });
    expect(s.pairs.every((p) => !p.dependsOnJudge)).toBe(true);
    expect(rankStability(quiet, { resamples: 200, seed: 2 })).toEqual(s);
  });
});

import { canonicalOrder } from './keyed-mean-interval.js';
import { pairedTTest } from './paired-t-test.js';
import { createRandom, randomInt } from './random.js';
import { assertResampling } from './validate.js';

/** One system's repeated judgments: per item id, the K scores of its K judge repeats. */
export interface RepeatedScores {
  label: string;
  items: ReadonlyMap<string, readonly number[]>;
}

export interface RankStabilityOptions {
  /** Resamples of items and of repeats; default 1,000. */
  resamples?: number;
  seed?: number;
  higherIsBetter?: boolean;
  /** Level of the paired t-tests; default 0.05. */
  alpha?: number;
}

export interface SystemStability {
  label: string;
  /** Rank (1 = best) by the mean over items of the mean of the repeats. */
  rank: number;
  /** Share of resamples (items and repeats) in which the system has the same rank. */
  keepsRank: number;
}

export interface PairStability {
  a: string;
  b: string;
  /** Paired t-test p on the repeat means (items both have). */
  p: number | null;
  significant: boolean;
  /** Share of resamples of the judge's repeats (one repeat drawn per item and system) in which the
   *  difference is significant. */
  significantShare: number;
  /** Significance flips with the judge's draw: significantShare is between 5% and 95%. */
  dependsOnJudge: boolean;
}

export interface RankStability {
  items: number;
  resamples: number;
  seed: number;
  systems: SystemStability[];
  pairs: PairStability[];
}

/**
 * How much a ranking of systems owes to which items were asked and to the judge's noise. Each
 * resample draws the items with replacement and, for each drawn item and system, one of its judge
 * repeats; a system "keeps its rank" when it has its full-data rank in the resample. For each pair
 * the repeats alone are resampled (items fixed) and the paired t-test redone: a difference
 * significant in fewer than 95% and more than 5% of the judge's draws depends on the judge's noise.
 * Only items every system has (with at least one repeat) count; ties in rank go to the earlier system.
 */
export function rankStability(
  systems: readonly RepeatedScores[],
  options: RankStabilityOptions = {},
): RankStability {
  const { resamples = 1000, seed = 0, higherIsBetter = true, alpha = 0.05 } = options;
  assertResampling('rankStability', resamples, seed);
  const shared = [...(systems[0]?.items.keys() ?? [])].filter((id) =>
    systems.every((s) => (s.items.get(id)?.length ?? 0) > 0),
  );
  const ids = canonicalOrder(shared).map((i) => shared[i]!);
  const reps = systems.map((s) => ids.map((id) => s.items.get(id)!));
  const n = ids.length;
  const itemMeans = reps.map((r) => r.map((k) => k.reduce((a, b) => a + b, 0) / k.length));
  const rankOf = (means: readonly number[]) => {
    const order = means
      .map((_, i) => i)
      .sort((x, y) => (higherIsBetter ? means[y]! - means[x]! : means[x]! - means[y]!) || x - y);
    const rank = new Array<number>(means.length);
    order.forEach((s, r) => {
      rank[s] = r + 1;
    });
    return rank;
  };
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const ranks = rankOf(itemMeans.map(mean));
  const random = createRandom(seed);
  const kept = new Array<number>(systems.length).fill(0);
  for (let r = 0; r < resamples; r++) {
    const sums = new Array<number>(systems.length).fill(0);
    for (let i = 0; i < n; i++) {
      const item = randomInt(random, n);
      for (let s = 0; s < systems.length; s++) {
        const k = reps[s]![item]!;
        sums[s]! += k[randomInt(random, k.length)]!;
      }
    }
    rankOf(sums).forEach((rank, s) => {
      if (rank === ranks[s]) kept[s]!++;
    });
  }
  const pairs: PairStability[] = [];
  for (let i = 0; i < systems.length; i++) {
    for (let j = i + 1; j < systems.length; j++) {
      const p = pairedTTest(itemMeans[i]!, itemMeans[j]!).p;
      let hits = 0;
      for (let r = 0; r < resamples; r++) {
        const draw = (s: number) => reps[s]!.map((k) => k[randomInt(random, k.length)]!);
        const q = pairedTTest(draw(i), draw(j)).p;
        if (q !== null && q < alpha) hits++;
      }
      const share = hits / resamples;
      pairs.push({
        a: systems[i]!.label,
        b: systems[j]!.label,
        p,
        significant: p !== null && p < alpha,
        significantShare: share,
        dependsOnJudge: share > 0.05 && share < 0.95,
      });
    }
  }
  return {
    items: n,
    resamples,
    seed,
    systems: systems.map((s, i) => ({ label: s.label, rank: ranks[i]!, keepsRank: kept[i]! / resamples })),
    pairs,
  };
}

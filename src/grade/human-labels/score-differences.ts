import { median } from '../../stats/index.js';

/**
 * RAGChecker's meta-evaluation protocol for a pointwise score on a pairwise set
 * (data/meta_evaluation/meta_eval.py): the difference score(answer 2) − score(answer 1) per pair; a
 * missing difference is set to the median of the others; the differences are rescaled linearly
 * from [min, max] to [−2, 2], the range of the human labels. Pairs are then compared with every
 * human label of the item (`reference: 'each'`). A constant difference is left unscaled, as there.
 */
export function rescaledScoreDifferences(
  scores: ReadonlyMap<string, { answer1: number | null; answer2: number | null }>,
  range: [number, number] = [-2, 2],
): Map<string, number> {
  const diffs = new Map<string, number | null>();
  for (const [id, s] of scores) {
    diffs.set(id, s.answer1 === null || s.answer2 === null ? null : s.answer2 - s.answer1);
  }
  const present = [...diffs.values()].filter((d): d is number => d !== null);
  const out = new Map<string, number>();
  if (present.length === 0) return out;
  const mid = median(present)!;
  const lo = Math.min(...present);
  const hi = Math.max(...present);
  const [a, b] = range;
  for (const [id, d] of diffs) {
    const v = d ?? mid;
    out.set(id, hi === lo ? v : ((v - lo) / (hi - lo)) * (b - a) + a);
  }
  return out;
}

import type { ScoredPassage } from '../common/index.js';

/** Sorts by score descending, ties by id ascending (deterministic). */
export function byScore(a: ScoredPassage, b: ScoredPassage): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Naive fusion: the union of all lists, an item keeping its highest score from any list. */
export function naiveFusion(lists: readonly (readonly ScoredPassage[])[]): ScoredPassage[] {
  const best = new Map<string, ScoredPassage>();
  for (const list of lists) {
    for (const p of list) {
      const prev = best.get(p.id);
      if (!prev || p.score > prev.score) best.set(p.id, p);
    }
  }
  return [...best.values()].sort(byScore);
}

/**
 * Reciprocal rank fusion: score(d) = Σ_i w_i / (k + rank_i(d)), ranks 1-based within each list
 * (as given, best first); an item absent from a list gets nothing from it. Default k = 60, w = 1.
 */
export function rrfFusion(
  lists: readonly (readonly ScoredPassage[])[],
  options: { k?: number; weights?: readonly number[] } = {},
): ScoredPassage[] {
  const k = options.k ?? 60;
  const fused = new Map<string, ScoredPassage>();
  lists.forEach((list, li) => {
    const w = options.weights?.[li] ?? 1;
    list.forEach((p, rank) => {
      const prev = fused.get(p.id);
      const add = w / (k + rank + 1);
      fused.set(p.id, { id: p.id, docId: p.docId, score: (prev?.score ?? 0) + add });
    });
  });
  return [...fused.values()].sort(byScore);
}

/**
 * Weighted score fusion: each list's scores are min–max normalised to [0, 1] (a list with one
 * distinct score maps to 1), then score(d) = Σ_i w_i · norm_i(d).
 */
export function weightedFusion(
  lists: readonly (readonly ScoredPassage[])[],
  weights: readonly number[],
): ScoredPassage[] {
  const fused = new Map<string, ScoredPassage>();
  lists.forEach((list, li) => {
    const w = weights[li] ?? 1;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const p of list) {
      lo = Math.min(lo, p.score);
      hi = Math.max(hi, p.score);
    }
    for (const p of list) {
      const norm = hi > lo ? (p.score - lo) / (hi - lo) : 1;
      const prev = fused.get(p.id);
      fused.set(p.id, { id: p.id, docId: p.docId, score: (prev?.score ?? 0) + w * norm });
    }
  });
  return [...fused.values()].sort(byScore);
}

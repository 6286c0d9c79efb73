/** How much a judge disagrees with itself over repeated judgments of the same items. */
export interface JudgeVariance {
  /** Items judged at least twice. */
  items: number;
  /** Most repeats of one item. */
  repeats: number;
  /** Mean over items of the standard deviation (n − 1) of their repeated scores. */
  withinItemSd: number | null;
  /** Share of items whose repeated scores are not all the same (a changed verdict). */
  verdictChangeShare: number | null;
}

/**
 * The judge's own noise on items it judged K times: the mean within-item spread and the share of
 * items whose verdict changed between repeats. Items judged once say nothing about it and are
 * left out (counted apart by the caller).
 */
export function judgeVariance(repeats: Iterable<readonly number[]>): JudgeVariance {
  let items = 0;
  let most = 0;
  let sdSum = 0;
  let changed = 0;
  for (const scores of repeats) {
    most = Math.max(most, scores.length);
    if (scores.length < 2) continue;
    items++;
    const m = scores.reduce((a, b) => a + b, 0) / scores.length;
    const ss = scores.reduce((a, b) => a + (b - m) * (b - m), 0);
    sdSum += Math.sqrt(ss / (scores.length - 1));
    if (scores.some((s) => s !== scores[0])) changed++;
  }
  return {
    items,
    repeats: most,
    withinItemSd: items ? sdSum / items : null,
    verdictChangeShare: items ? changed / items : null,
  };
}

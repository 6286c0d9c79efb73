/**
 * difflib's cheap upper bounds of `SequenceMatcher.ratio()`: `real_quick_ratio` (lengths only) and
 * `quick_ratio` (multiset character overlap). Both are ≥ ratio() for the same pair, so a pair whose
 * bound is below a threshold cannot reach it; the metric stays exact while skipping most of the
 * expensive matching-block search.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

export function realQuickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * Math.min(a.length, b.length)) / total;
}

export function quickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const counts = new Map<number, number>();
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    const left = counts.get(c) ?? 0;
    if (left > 0) {
      matches++;
      counts.set(c, left - 1);
    }
  }
  return (2 * matches) / total;
}

/**
 * `ratio(a, b) >= threshold`, evaluating the bounds first. `ratio` must be difflib's ratio on the
 * same strings (UTF-16 code units, as quickRatio counts).
 */
export function ratioAtLeast(
  a: string,
  b: string,
  threshold: number,
  ratio: (a: string, b: string) => number,
): boolean {
  // The bounds count UTF-16 units; difflib counts code points. Skip them for astral text.
  if (SURROGATE.test(a) || SURROGATE.test(b)) return ratio(a, b) >= threshold;
  if (realQuickRatio(a, b) < threshold) return false;
  if (quickRatio(a, b) < threshold) return false;
  return ratio(a, b) >= threshold;
}

import { CitegeistError, quoteValue } from '../core/index.js';

/** How p-values of one table are adjusted for the number of comparisons in it. */
export type Correction = 'holm' | 'bonferroni' | 'bh' | 'none';
export const CORRECTIONS: readonly Correction[] = ['holm', 'bonferroni', 'bh', 'none'];

/**
 * Adjusted p-values for m tests (nulls — tests that could not be made — are left null and not
 * counted in m), as statsmodels `multipletests` and SciPy `false_discovery_control` give them:
 * - `bonferroni`: min(1, m·p) (controls the family-wise error);
 * - `holm` (the default): step-down, the i-th smallest gets max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎)
 *   (Holm 1979; family-wise error, uniformly more powerful than Bonferroni);
 * - `bh`: Benjamini–Hochberg step-up, min over j ≥ i of m·p₍ⱼ₎/j, capped at 1 (false discovery rate);
 * - `none`: unchanged.
 */
export function adjustPValues(p: readonly (number | null)[], method: Correction = 'holm'): (number | null)[] {
  if (!CORRECTIONS.includes(method)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `adjustPValues: correction ${quoteValue(method)} is not one of ${CORRECTIONS.join(', ')}.`,
      'Use holm (the default), bonferroni, bh or none.',
    );
  }
  const present = p.flatMap((v, i) => (v === null ? [] : [i]));
  const m = present.length;
  const out: (number | null)[] = p.map(() => null);
  if (method === 'none') return [...p];
  if (method === 'bonferroni') {
    for (const i of present) out[i] = Math.min(1, m * p[i]!);
    return out;
  }
  const order = [...present].sort((x, y) => p[x]! - p[y]! || x - y);
  if (method === 'holm') {
    let running = 0;
    order.forEach((i, rank) => {
      running = Math.max(running, Math.min(1, (m - rank) * p[i]!));
      out[i] = running;
    });
    return out;
  }
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank--) {
    const i = order[rank]!;
    running = Math.min(running, (m * p[i]!) / (rank + 1));
    out[i] = Math.min(1, running);
  }
  return out;
}

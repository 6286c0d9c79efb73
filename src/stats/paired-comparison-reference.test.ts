import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { numpyMean } from '../python-compat/index.js';
import { bcaBounds } from './bca-interval.js';
import { cohensDz, differenceSd } from './cohens-dz.js';
import { minimumDetectableDifference } from './minimum-detectable-difference.js';
import { adjustPValues } from './multiple-comparisons.js';
import { normalCdf, normalQuantile } from './normal-distribution.js';
import { type ItemScore, pairItems } from './pair-items.js';
import { pairedBootstrap } from './paired-bootstrap.js';
import { pairedPermutationTest } from './paired-permutation-test.js';
import { pairedTTest } from './paired-t-test.js';
import { signTest } from './sign-test.js';
import { wilcoxonSignedRank } from './wilcoxon-signed-rank.js';

/** Made by scripts/stats-reference.py (SciPy 1.17.1): see that script for the cases. */
interface Case {
  name: string;
  a: (number | null)[];
  b: (number | null)[];
  n: number;
  ttest_rel?: { statistic: number | null; pvalue: number | null };
  wilcoxon?: { statistic: number; pvalue: number };
  binomtest?: { k: number; n: number; pvalue: number };
  permutation_test?: { exact: boolean; n_resamples: number; pvalue: number; statistic: number };
  cohens_dz?: number;
  mdd?: number;
  bootstrap?: { percentile: [number, number]; BCa: [number, number] };
  bca_from_replicates?: { replicates: number[]; bounds: [number, number] };
}
const ref = JSON.parse(
  readFileSync(join(import.meta.dirname, '__fixtures__', 'paired-comparison-reference.json'), 'utf8'),
) as {
  scipy: string;
  cases: Case[];
  corrections: Record<'p' | 'holm' | 'bonferroni' | 'bh', number[]>;
  normal: { x: number[]; ndtr: number[]; p: number[]; ndtri: number[] };
};

/** An item failed on one side is null in the reference: it becomes a failed tri-state score. */
const scores = (xs: (number | null)[]) =>
  new Map<string, ItemScore>(xs.map((v, i) => [`item${String(i).padStart(3, '0')}`, v ?? 'failed']));

const EXACT = 1e-12;
const close = (actual: number | null | undefined, expected: number | null | undefined, tol = EXACT) => {
  expect(actual).not.toBeNull();
  expect(expected).not.toBeNull();
  expect(Math.abs(actual! - expected!)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected!)));
};

describe(`paired comparisons agree with SciPy ${ref.scipy}`, () => {
  it.each(ref.cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const paired = pairItems(scores(c.a), scores(c.b));
    expect(paired.a.length).toBe(c.n);
    expect(paired.droppedFailed).toBe(c.a.filter((v, i) => v === null || c.b[i] === null).length);
    const { a, b } = paired;
    if (c.ttest_rel) {
      const t = pairedTTest(a, b);
      if (c.ttest_rel.pvalue === null) expect(t.p).toBeNull();
      else close(t.p, c.ttest_rel.pvalue);
    }
    const w = wilcoxonSignedRank(a, b);
    if (c.wilcoxon) {
      close(w.statistic, c.wilcoxon.statistic);
      close(w.p, c.wilcoxon.pvalue);
      const s = signTest(a, b);
      expect([s.positive, s.n]).toEqual([c.binomtest!.k, c.binomtest!.n]);
      close(s.p, c.binomtest!.pvalue);
    } else {
      expect(w.p).toBeNull();
      expect(signTest(a, b).p).toBeNull();
    }
    if (c.permutation_test) {
      const r = pairedPermutationTest(a, b, { iterations: 10_000, seed: 5 });
      expect(r.exact).toBe(c.permutation_test.exact);
      close(r.observed, c.permutation_test.statistic);
      if (r.exact) close(r.p, c.permutation_test.pvalue);
      else {
        // Both Monte Carlo: ours on 10,000 patterns, SciPy's on 100,000; 4 standard errors of the
        // difference (p(1 − p)(1/10⁴ + 1/10⁵)) plus 1/10⁴ for the +1 in each count.
        const p = c.permutation_test.pvalue;
        const tol = 4 * Math.sqrt(p * (1 - p) * (1e-4 + 1e-5)) + 1e-4;
        expect(Math.abs(r.p! - p)).toBeLessThanOrEqual(tol);
      }
    }
    if (c.cohens_dz !== undefined) {
      close(cohensDz(a, b), c.cohens_dz);
      close(minimumDetectableDifference(differenceSd(a, b), a.length), c.mdd);
    } else if (a.length >= 2) {
      // No spread in the differences: reported as null, never a division by zero.
      expect(cohensDz(a, b)).toBeNull();
      expect(minimumDetectableDifference(differenceSd(a, b), a.length)).toBe(0);
    }
    if (c.bca_from_replicates) {
      const d = a.map((v, i) => v - b[i]!);
      const m = numpyMean(d); // SciPy's estimate is np.mean: its bits decide ties with replicates
      const sorted = Float64Array.from(c.bca_from_replicates.replicates).sort();
      const bounds = bcaBounds(
        sorted,
        m,
        d.map((x) => x - m),
        0.95,
      );
      close(bounds![0], c.bca_from_replicates.bounds[0]);
      close(bounds![1], c.bca_from_replicates.bounds[1]);
    }
    if (c.bootstrap) {
      // Different random streams (ours 10,000 resamples, SciPy's 50,000): the bounds agree within
      // a tenth of the interval's width (the Monte Carlo error of a 2.5% quantile is far smaller).
      const r = pairedBootstrap(a, b, { seed: 3 });
      for (const [ours, theirs] of [
        [r.percentile, c.bootstrap.percentile],
        [r.bca, c.bootstrap.BCa],
      ] as const) {
        const tol = 0.1 * (theirs[1] - theirs[0]) + 1e-12;
        expect(Math.abs(ours![0] - theirs[0])).toBeLessThanOrEqual(tol);
        expect(Math.abs(ours![1] - theirs[1])).toBeLessThanOrEqual(tol);
      }
    }
  });

  it('adjusts p-values as Holm, Bonferroni and SciPy false_discovery_control (BH) do', () => {
    const { p, holm, bonferroni, bh } = ref.corrections;
    for (const [method, expected] of [
      ['holm', holm],
      ['bonferroni', bonferroni],
      ['bh', bh],
    ] as const) {
      const adjusted = adjustPValues(p, method);
      for (const [i, e] of expected.entries()) close(adjusted[i], e);
    }
    expect(adjustPValues([0.01, null, 0.04], 'bonferroni')).toEqual([0.02, null, 0.08]);
  });

  it('has the normal distribution of SciPy ndtr / ndtri', () => {
    for (const [i, x] of ref.normal.x.entries()) close(normalCdf(x), ref.normal.ndtr[i]!, 1e-14);
    for (const [i, p] of ref.normal.p.entries()) close(normalQuantile(p), ref.normal.ndtri[i]!, 1e-14);
  });
});

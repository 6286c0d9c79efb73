import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bootstrapAgreement } from './agreement-bootstrap.js';
import {
  AGREEMENT_MEASURES,
  type AgreementMeasureId,
  agreementMeasures,
  categoryIndex,
  confusionOf,
  type KappaWeights,
  perCategoryOf,
} from './agreement-measures.js';
import type { PairTable } from './pair-table.js';

const one = (
  t: PairTable,
  m: AgreementMeasureId,
  level: MeasurementLevel = 'interval',
  categories?: number[],
) => agreementMeasures(t, { level, measures: [m], ...(categories ? { categories } : {}) })[m];
const pearsonOf = (t: PairTable) => one(t, 'pearson');
const spearmanOf = (t: PairTable) => one(t, 'spearman');
const kendallTauBOf = (t: PairTable) => one(t, 'kendall_tau_b');
const alphaOf = (t: PairTable, level: MeasurementLevel) => one(t, 'alpha', level);
const kappaId: Record<KappaWeights, AgreementMeasureId> = {
  unweighted: 'kappa',
  linear: 'kappa_linear',
  quadratic: 'kappa_quadratic',
};
const cohenKappaOf = (t: PairTable, categories: number[], w: KappaWeights) =>
  one(t, kappaId[w], 'nominal', categories);

import { pearson, spearman } from './correlation.js';
import { kendallTauB } from './kendall.js';
import { krippendorffAlpha, type MeasurementLevel } from './krippendorff-alpha.js';
import { pairTable } from './pair-table.js';

interface RefCase {
  name: string;
  x: number[];
  y: number[];
  categories: number[] | null;
  accuracy?: number;
  kappa_unweighted?: number;
  kappa_linear?: number;
  kappa_quadratic?: number;
  alpha_nominal?: number;
  alpha_ordinal?: number;
  alpha_interval?: number;
  pearson: number;
  spearman: number;
  kendall_tau_b: number;
}

/** Made by `__fixtures__/make-agreement-reference.py` (NumPy formulas, SciPy 1.17.1). */
const reference = JSON.parse(
  readFileSync(new URL('./__fixtures__/agreement-reference.json', import.meta.url), 'utf8'),
) as { cases: RefCase[] };

describe('agreement measures against the Python reference (tolerance 1e-12)', () => {
  it.each(reference.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const t = pairTable(c.x, c.y);
    expect(pearsonOf(t)).toBeCloseTo(c.pearson, 12);
    expect(spearmanOf(t)).toBeCloseTo(c.spearman, 12);
    expect(kendallTauBOf(t)).toBeCloseTo(c.kendall_tau_b, 12);
    for (const level of ['nominal', 'ordinal', 'interval'] as const) {
      const want = c[`alpha_${level}`];
      if (want !== undefined) expect(alphaOf(t, level)).toBeCloseTo(want, 12);
    }
    if (c.categories) {
      expect(one(t, 'accuracy', 'nominal', c.categories)).toBeCloseTo(c.accuracy!, 12);
      expect(cohenKappaOf(t, c.categories, 'unweighted')).toBeCloseTo(c.kappa_unweighted!, 12);
      expect(cohenKappaOf(t, c.categories, 'linear')).toBeCloseTo(c.kappa_linear!, 12);
      expect(cohenKappaOf(t, c.categories, 'quadratic')).toBeCloseTo(c.kappa_quadratic!, 12);
    } else {
      const values = agreementMeasures(t, { level: 'ordinal', measures: AGREEMENT_MEASURES });
      expect(values.kappa).toBeNull();
      expect(values.accuracy).toBeNull();
    }
  });

  it.each(reference.cases.map((c) => [c.name, c] as const))(
    '%s: the table forms equal the raw-pair functions of stats/ (one formula, two layouts)',
    (_name, c) => {
      const t = pairTable(c.x, c.y);
      expect(pearsonOf(t)).toBeCloseTo(pearson(c.x, c.y)!, 12);
      expect(spearmanOf(t)).toBeCloseTo(spearman(c.x, c.y)!, 12);
      expect(kendallTauBOf(t)).toBeCloseTo(kendallTauB(c.x, c.y)!, 12);
      for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as MeasurementLevel[]) {
        if (level === 'ratio' && [...c.x, ...c.y].some((v) => v < 0)) continue;
        expect(alphaOf(t, level)).toBeCloseTo(krippendorffAlpha([c.x, c.y], level)!, 12);
      }
    },
  );
});

describe('agreement edge cases', () => {
  it('a constant rater has no correlation and no κ (null, never 0)', () => {
    const t = pairTable([1, 1, 1, 1], [0, 1, 0, 1]);
    expect(pearsonOf(t)).toBeNull();
    expect(spearmanOf(t)).toBeNull();
    expect(kendallTauBOf(t)).toBeNull();
    // both raters constant and equal: κ's expected disagreement is 0
    const same = pairTable([2, 2], [2, 2]);
    expect(cohenKappaOf(same, [1, 2], 'unweighted')).toBeNull();
    expect(alphaOf(same, 'nominal')).toBeNull();
  });
  it('perfect agreement: accuracy 1, κ 1, α 1', () => {
    const x = [0, 1, 2, 2, 1, 0];
    const spec = { level: 'ordinal' as const, categories: [0, 1, 2], measures: AGREEMENT_MEASURES };
    const v = agreementMeasures(pairTable(x, x), spec);
    for (const m of AGREEMENT_MEASURES) expect(v[m]).toBeCloseTo(1, 12);
  });
  it('values off the category list make accuracy and κ not applicable', () => {
    const t = pairTable([0.5, 1], [0, 1]);
    expect(categoryIndex(t, [0, 1])).toBeNull();
  });
  it('confusion matrix: rows are the reference (y), columns the rater (x); per-category recall and precision', () => {
    const t = pairTable([0, 0, 1, 1, 1], [0, 1, 1, 1, 0]);
    const cat = categoryIndex(t, [0, 1])!;
    expect(confusionOf(t, cat)).toEqual([
      [1, 1],
      [1, 2],
    ]);
    const per = perCategoryOf(t, cat);
    expect(per[1]).toEqual({ reference: 3, rated: 3, both: 2, recall: 2 / 3, precision: 2 / 3 });
  });
  it('empty input: every measure null', () => {
    const v = agreementMeasures(pairTable([], []), {
      level: 'nominal',
      categories: [0],
      measures: AGREEMENT_MEASURES,
    });
    for (const m of AGREEMENT_MEASURES) expect(v[m]).toBeNull();
  });
});

describe('bootstrapAgreement', () => {
  const c = reference.cases[1]!;
  const spec = { level: 'ordinal' as const, categories: c.categories!, measures: AGREEMENT_MEASURES };
  it('is reproducible for a seed, brackets the estimate, and states seed and resamples', () => {
    const a = bootstrapAgreement(pairTable(c.x, c.y), spec, { iterations: 500, seed: 7 });
    const b = bootstrapAgreement(pairTable(c.x, c.y), spec, { iterations: 500, seed: 7 });
    expect(a).toEqual(b);
    for (const m of AGREEMENT_MEASURES) {
      const ci = a[m]!;
      expect(ci.seed).toBe(7);
      expect(ci.iterations).toBe(500);
      expect(ci.lower!).toBeLessThanOrEqual(ci.estimate!);
      expect(ci.upper!).toBeGreaterThanOrEqual(ci.estimate!);
    }
  });
  it('drawing counts as binomials (many items, few cells) matches item-by-item resampling in distribution', () => {
    // 20 copies of the 300 pairs: 6,000 items in ≤ 25 cells → the binomial path
    const x = Array.from({ length: 20 }, () => c.x).flat();
    const y = Array.from({ length: 20 }, () => c.y).flat();
    const ci = bootstrapAgreement(pairTable(x, y), spec, { iterations: 2000, seed: 1 }).kappa!;
    // the normal-theory half-width of κ at n = 6,000 here is about 0.012; the percentile interval must agree
    const width = ci.upper! - ci.lower!;
    expect(width).toBeGreaterThan(0.015);
    expect(width).toBeLessThan(0.035);
    expect(ci.estimate).toBeCloseTo(c.kappa_unweighted!, 12);
  });
});

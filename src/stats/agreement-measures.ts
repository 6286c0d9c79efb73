import { alphaFromCoincidence, type MeasurementLevel } from './krippendorff-alpha.js';
import type { PairTable } from './pair-table.js';

/**
 * Agreement between two raters (x, y) computed from their pair table (`pair-table.ts`), so that the
 * bootstrap can recompute them from resampled counts. Each equals the textbook formula on the raw
 * pairs; `agreement-measures.test.ts` checks them against `pearson`, `spearman`, `kendallTauB`,
 * `krippendorffAlpha` and against reference values from Python (SciPy, NumPy formulas); Cohen's κ
 * is 1 − Σ w·O / Σ w·E with disagreement weights on category positions (1 off the diagonal, |i − j|,
 * (i − j)²), as scikit-learn's `cohen_kappa_score` with `labels` = the categories.
 * `null` = not applicable (no variation, no items, or values off the category list).
 */
export type AgreementMeasureId =
  | 'accuracy'
  | 'kappa'
  | 'kappa_linear'
  | 'kappa_quadratic'
  | 'alpha'
  | 'pearson'
  | 'spearman'
  | 'kendall_tau_b';

export const AGREEMENT_MEASURES: readonly AgreementMeasureId[] = [
  'accuracy',
  'kappa',
  'kappa_linear',
  'kappa_quadratic',
  'alpha',
  'pearson',
  'spearman',
  'kendall_tau_b',
];

/** What to compute: the level of α, the ordered categories (for accuracy, κ) and which measures. */
export interface AgreementSpec {
  level: MeasurementLevel;
  /** The scale's categories in order (κ weights use their positions); absent for a continuous scale. */
  categories?: readonly number[];
  measures: readonly AgreementMeasureId[];
}

export type AgreementValues = Partial<Record<AgreementMeasureId, number | null>>;

export function agreementMeasures(t: PairTable, spec: AgreementSpec): AgreementValues {
  return measureEvaluator(t, spec)(t.counts);
}

/**
 * Prepares everything about a table that does not depend on its counts (category positions,
 * weights, the pooled value list, the x groups of the cells), and returns the function that
 * computes the measures of `spec` from a vector of cell counts: the table's own, or a bootstrap
 * resample's. This is the one implementation of every measure here; `agreementMeasures` is it
 * applied to the table's counts.
 */
export function measureEvaluator(
  t: PairTable,
  spec: AgreementSpec,
): (counts: ArrayLike<number>) => AgreementValues {
  const cells = t.cellX.length;
  const want = new Set(spec.measures);
  const cat = spec.categories ? categoryIndex(t, spec.categories) : null;
  // per cell: category positions (κ), equality (accuracy), pooled-value indices (α), values (r)
  const ci = new Int32Array(cells);
  const cj = new Int32Array(cells);
  const same = new Uint8Array(cells);
  const xv = new Float64Array(cells);
  const yv = new Float64Array(cells);
  for (let c = 0; c < cells; c++) {
    xv[c] = t.xValues[t.cellX[c]!]!;
    yv[c] = t.yValues[t.cellY[c]!]!;
    same[c] = xv[c] === yv[c] ? 1 : 0;
    if (cat) {
      ci[c] = cat.xPos[t.cellX[c]!]!;
      cj[c] = cat.yPos[t.cellY[c]!]!;
    }
  }
  const k = cat?.k ?? 0;
  const weights = (['unweighted', 'linear', 'quadratic'] as const).map((w) => {
    const m = new Float64Array(k * k);
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++)
        m[i * k + j] =
          w === 'unweighted' ? (i === j ? 0 : 1) : w === 'linear' ? Math.abs(i - j) : (i - j) ** 2;
    return m;
  });
  const union = Float64Array.from(new Set([...t.xValues, ...t.yValues])).sort();
  const at = new Map(Array.from(union, (v, i) => [v, i]));
  const ua = Int32Array.from(xv, (v) => at.get(v)!);
  const ub = Int32Array.from(yv, (v) => at.get(v)!);
  const nx = t.xValues.length;
  const ny = t.yValues.length;
  // scratch, reused by every call
  const rows = new Float64Array(nx);
  const cols = new Float64Array(ny);
  const rk = new Float64Array(k);
  const ck = new Float64Array(k);
  const marg = new Float64Array(union.length);
  const pos = new Float64Array(union.length);
  const xRank = new Float64Array(nx);
  const yRank = new Float64Array(ny);
  const tree = new Float64Array(ny + 1);

  return (counts) => {
    const out: AgreementValues = {};
    let n = 0;
    rows.fill(0);
    cols.fill(0);
    for (let c = 0; c < cells; c++) {
      const m = counts[c]!;
      n += m;
      rows[t.cellX[c]!]! += m;
      cols[t.cellY[c]!]! += m;
    }
    const xConstant = nonZero(rows) <= 1;
    const yConstant = nonZero(cols) <= 1;
    if (want.has('accuracy')) {
      let hit = 0;
      for (let c = 0; c < cells; c++) if (same[c]) hit += counts[c]!;
      out.accuracy = cat && n > 0 ? hit / n : null;
    }
    if (want.has('kappa') || want.has('kappa_linear') || want.has('kappa_quadratic')) {
      const kappas = cat && n > 0 ? kappaAll(counts, n) : [null, null, null];
      if (want.has('kappa')) out.kappa = kappas[0]!;
      if (want.has('kappa_linear')) out.kappa_linear = kappas[1]!;
      if (want.has('kappa_quadratic')) out.kappa_quadratic = kappas[2]!;
    }
    if (want.has('alpha')) out.alpha = n > 0 ? alpha(counts, n) : null;
    if (want.has('pearson'))
      out.pearson =
        n < 2 || xConstant || yConstant
          ? null
          : weightedPearson(
              counts,
              n,
              (c) => xv[c]!,
              (c) => yv[c]!,
            );
    if (want.has('spearman')) {
      if (n < 2 || xConstant || yConstant) out.spearman = null;
      else {
        averageRanks(rows, xRank);
        averageRanks(cols, yRank);
        out.spearman = weightedPearson(
          counts,
          n,
          (c) => xRank[t.cellX[c]!]!,
          (c) => yRank[t.cellY[c]!]!,
        );
      }
    }
    if (want.has('kendall_tau_b'))
      out.kendall_tau_b = n < 2 || xConstant || yConstant ? null : kendall(counts, n);
    return out;
  };

  function kappaAll(counts: ArrayLike<number>, n: number): (number | null)[] {
    rk.fill(0);
    ck.fill(0);
    const observed = [0, 0, 0];
    for (let c = 0; c < cells; c++) {
      const m = counts[c]!;
      const i = ci[c]!;
      const j = cj[c]!;
      rk[i]! += m;
      ck[j]! += m;
      for (let w = 0; w < 3; w++) observed[w]! += m * weights[w]![i * k + j]!;
    }
    return weights.map((wm, w) => {
      let expected = 0;
      for (let i = 0; i < k; i++) {
        if (rk[i] === 0) continue;
        for (let j = 0; j < k; j++) expected += rk[i]! * ck[j]! * wm[i * k + j]!;
      }
      expected /= n;
      return expected === 0 ? null : 1 - observed[w]! / expected;
    });
  }

  /**
   * Krippendorff's α for two raters who rated every item: the coincidence matrix is T + Tᵀ.
   * Ordinal δ²(c, k) equals (M_c − M_k)² with M_c the value's mid-position in the pooled ranking
   * (values below c, plus n_c / 2), so ordinal is the interval formula on those positions: O(cells).
   */
  function alpha(counts: ArrayLike<number>, n: number): number | null {
    const level = spec.level;
    marg.fill(0);
    for (let c = 0; c < cells; c++) {
      marg[ua[c]!]! += counts[c]!;
      marg[ub[c]!]! += counts[c]!;
    }
    const total = 2 * n;
    if (level === 'ratio') return alphaFromCoincidence(coincidence(counts, n), level);
    if (level === 'ordinal') {
      let below = 0;
      for (let v = 0; v < union.length; v++) {
        pos[v] = below + marg[v]! / 2;
        below += marg[v]!;
      }
    } else pos.set(union);
    const nominal = level === 'nominal';
    let observed = 0;
    for (let c = 0; c < cells; c++) {
      const a = ua[c]!;
      const b = ub[c]!;
      if (a !== b) observed += 2 * counts[c]! * (nominal ? 1 : (pos[a]! - pos[b]!) ** 2);
    }
    let expected = 0;
    if (nominal) {
      let squares = 0;
      for (const m of marg) squares += m * m;
      expected = total * total - squares;
    } else {
      let mean = 0;
      for (let v = 0; v < union.length; v++) mean += marg[v]! * pos[v]!;
      mean /= total;
      for (let v = 0; v < union.length; v++) expected += marg[v]! * (pos[v]! - mean) ** 2;
      expected *= 2 * total;
    }
    if (expected === 0) return null;
    return 1 - ((total - 1) * observed) / expected;
  }

  function coincidence(counts: ArrayLike<number>, n: number) {
    const o = Array.from(union, () => new Array<number>(union.length).fill(0));
    for (let c = 0; c < cells; c++) {
      o[ua[c]!]![ub[c]!]! += counts[c]!;
      o[ub[c]!]![ua[c]!]! += counts[c]!;
    }
    return { values: [...union], o, marginals: [...marg], total: 2 * n, pairableUnits: n };
  }

  function weightedPearson(
    counts: ArrayLike<number>,
    n: number,
    fx: (c: number) => number,
    fy: (c: number) => number,
  ): number | null {
    let mx = 0;
    let my = 0;
    for (let c = 0; c < cells; c++) {
      mx += counts[c]! * fx(c);
      my += counts[c]! * fy(c);
    }
    mx /= n;
    my /= n;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (let c = 0; c < cells; c++) {
      const m = counts[c]!;
      const dx = fx(c) - mx;
      const dy = fy(c) - my;
      sxy += m * dx * dy;
      sxx += m * dx * dx;
      syy += m * dy * dy;
    }
    if (sxx === 0 || syy === 0) return null;
    return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx) / Math.sqrt(syy)));
  }

  /**
   * Kendall's τ-b: cells are sorted by x, so pairs with the cells of smaller x are counted as
   * concordant or discordant with a Fenwick tree over y, O(cells log cells).
   */
  function kendall(counts: ArrayLike<number>, n: number): number | null {
    tree.fill(0);
    const below = (j: number) => {
      let s = 0;
      for (let i = j; i > 0; i -= i & -i) s += tree[i]!;
      return s;
    };
    let concordant = 0;
    let discordant = 0;
    let seen = 0;
    let start = 0;
    while (start < cells) {
      let end = start;
      while (end < cells && t.cellX[end] === t.cellX[start]) end++;
      for (let c = start; c < end; c++) {
        const m = counts[c]!;
        if (m === 0) continue;
        const j = t.cellY[c]!;
        concordant += m * below(j);
        discordant += m * (seen - below(j + 1));
      }
      for (let c = start; c < end; c++) {
        const m = counts[c]!;
        for (let i = t.cellY[c]! + 1; i <= ny; i += i & -i) tree[i]! += m;
        seen += m;
      }
      start = end;
    }
    const pairs = (n * (n - 1)) / 2;
    let tiedX = 0;
    let tiedY = 0;
    for (const r of rows) tiedX += (r * (r - 1)) / 2;
    for (const c of cols) tiedY += (c * (c - 1)) / 2;
    if (tiedX === pairs || tiedY === pairs) return null;
    return Math.max(
      -1,
      Math.min(1, (concordant - discordant) / Math.sqrt(pairs - tiedX) / Math.sqrt(pairs - tiedY)),
    );
  }
}

/** Positions of the x and y values in the category list; null when a value is not a category. */
export interface CategoryIndex {
  k: number;
  xPos: Int32Array;
  yPos: Int32Array;
}

export function categoryIndex(t: PairTable, categories: readonly number[]): CategoryIndex | null {
  const at = new Map(categories.map((c, i) => [c, i]));
  const xPos = new Int32Array(t.xValues.length);
  const yPos = new Int32Array(t.yValues.length);
  for (let i = 0; i < t.xValues.length; i++) {
    const p = at.get(t.xValues[i]!);
    if (p === undefined) return null;
    xPos[i] = p;
  }
  for (let i = 0; i < t.yValues.length; i++) {
    const p = at.get(t.yValues[i]!);
    if (p === undefined) return null;
    yPos[i] = p;
  }
  return { k: categories.length, xPos, yPos };
}

export type KappaWeights = 'unweighted' | 'linear' | 'quadratic';

/** The k × k confusion matrix over the categories: rows = y (the reference), columns = x. */
export function confusionOf(t: PairTable, cat: CategoryIndex): number[][] {
  const m = Array.from({ length: cat.k }, () => new Array<number>(cat.k).fill(0));
  for (let c = 0; c < t.counts.length; c++) {
    m[cat.yPos[t.cellY[c]!]!]![cat.xPos[t.cellX[c]!]!]! += t.counts[c]!;
  }
  return m;
}

/** Per category: how many items y put there, x put there, both; recall = both / y, precision = both / x. */
export interface CategoryAgreement {
  reference: number;
  rated: number;
  both: number;
  recall: number | null;
  precision: number | null;
}

export function perCategoryOf(t: PairTable, cat: CategoryIndex): CategoryAgreement[] {
  const m = confusionOf(t, cat);
  return m.map((row, i) => {
    const reference = row.reduce((s, x) => s + x, 0);
    const rated = m.reduce((s, r) => s + r[i]!, 0);
    const both = row[i]!;
    return {
      reference,
      rated,
      both,
      recall: reference === 0 ? null : both / reference,
      precision: rated === 0 ? null : both / rated,
    };
  });
}

function nonZero(values: Float64Array): number {
  let count = 0;
  for (const v of values) if (v !== 0) count++;
  return count;
}

/** Average ranks (1-based) of values whose counts, in ascending value order, are `counts`. */
function averageRanks(counts: Float64Array, out: Float64Array): void {
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    out[i] = before + (counts[i]! + 1) / 2;
    before += counts[i]!;
  }
}

import { alphaFromCoincidence, type MeasurementLevel } from './krippendorff-alpha.js';
import type { PairTable } from './pair-table.js';

/**
 * Agreement between two raters (x, y) computed from their pair table (`pair-table.ts`), so that the
 * bootstrap can recompute them from resampled counts. Each equals the textbook formula on the raw
 * pairs; `agreement-measures.test.ts` checks them against `pearson`, `spearman`, `kendallTauB`,
 * `krippendorffAlpha` and against reference values from Python (SciPy, NumPy formulas).
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
  const out: AgreementValues = {};
  const cat = spec.categories ? cachedCategoryIndex(t, spec.categories) : null;
  for (const m of spec.measures) {
    switch (m) {
      case 'accuracy':
        out[m] = cat ? accuracyOf(t) : null;
        break;
      case 'kappa':
        out[m] = cat ? cohenKappaOf(t, cat, 'unweighted') : null;
        break;
      case 'kappa_linear':
        out[m] = cat ? cohenKappaOf(t, cat, 'linear') : null;
        break;
      case 'kappa_quadratic':
        out[m] = cat ? cohenKappaOf(t, cat, 'quadratic') : null;
        break;
      case 'alpha':
        out[m] = alphaOf(t, spec.level);
        break;
      case 'pearson':
        out[m] = pearsonOf(t);
        break;
      case 'spearman':
        out[m] = spearmanOf(t);
        break;
      case 'kendall_tau_b':
        out[m] = kendallTauBOf(t);
        break;
    }
  }
  return out;
}

/** Share of items on which x and y are equal. */
export function accuracyOf(t: PairTable): number | null {
  if (t.n === 0) return null;
  let same = 0;
  for (let c = 0; c < t.counts.length; c++) {
    if (t.xValues[t.cellX[c]!] === t.yValues[t.cellY[c]!]) same += t.counts[c]!;
  }
  return same / t.n;
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

/** Category positions depend on the table's values only, which every resample shares: computed once. */
const categoryCache = new WeakMap<Float64Array, Map<readonly number[], CategoryIndex | null>>();

function cachedCategoryIndex(t: PairTable, categories: readonly number[]): CategoryIndex | null {
  let byList = categoryCache.get(t.yValues);
  if (!byList) {
    byList = new Map();
    categoryCache.set(t.yValues, byList);
  }
  if (!byList.has(categories)) byList.set(categories, categoryIndex(t, categories));
  return byList.get(categories)!;
}

export type KappaWeights = 'unweighted' | 'linear' | 'quadratic';

/**
 * Cohen's κ = 1 − Σ w·O / Σ w·E with disagreement weights on category positions i, j: 1 off the
 * diagonal (unweighted), |i − j| (linear) or (i − j)² (quadratic); E = outer product of the
 * marginals / n (as scikit-learn's `cohen_kappa_score` with `labels` = the categories).
 */
export function cohenKappaOf(t: PairTable, cat: CategoryIndex, weights: KappaWeights): number | null {
  if (t.n === 0) return null;
  const w = (i: number, j: number) =>
    weights === 'unweighted' ? (i === j ? 0 : 1) : weights === 'linear' ? Math.abs(i - j) : (i - j) ** 2;
  const rows = new Float64Array(cat.k);
  const cols = new Float64Array(cat.k);
  let observed = 0;
  for (let c = 0; c < t.counts.length; c++) {
    const i = cat.xPos[t.cellX[c]!]!;
    const j = cat.yPos[t.cellY[c]!]!;
    const m = t.counts[c]!;
    rows[i]! += m;
    cols[j]! += m;
    observed += m * w(i, j);
  }
  let expected = 0;
  for (let i = 0; i < cat.k; i++) {
    if (rows[i] === 0) continue;
    for (let j = 0; j < cat.k; j++) expected += rows[i]! * cols[j]! * w(i, j);
  }
  expected /= t.n;
  if (expected === 0) return null;
  return 1 - observed / expected;
}

/**
 * Krippendorff's α for the two raters (every item rated by both): the coincidence matrix is
 * T + Tᵀ. Nominal, interval and ordinal need only the marginals and the cells, O(cells): ordinal
 * δ²(c, k) equals (M_c − M_k)² with M_c the value's mid-position in the pooled ranking
 * (values below c, plus n_c / 2), so it is the interval formula on those positions.
 */
export function alphaOf(t: PairTable, level: MeasurementLevel): number | null {
  if (t.n === 0) return null;
  const { values, xAt, yAt } = unionOf(t);
  const marg = new Float64Array(values.length);
  for (let c = 0; c < t.counts.length; c++) {
    marg[xAt[t.cellX[c]!]!]! += t.counts[c]!;
    marg[yAt[t.cellY[c]!]!]! += t.counts[c]!;
  }
  const total = 2 * t.n;
  if (level === 'ratio') return alphaFromCoincidence(coincidence(t, values, xAt, yAt, marg), level);
  const pos = new Float64Array(values.length);
  if (level === 'ordinal') {
    let below = 0;
    for (let v = 0; v < values.length; v++) {
      pos[v] = below + marg[v]! / 2;
      below += marg[v]!;
    }
  } else pos.set(values);
  const nominal = level === 'nominal';
  let observed = 0;
  for (let c = 0; c < t.counts.length; c++) {
    const a = xAt[t.cellX[c]!]!;
    const b = yAt[t.cellY[c]!]!;
    if (a !== b) observed += 2 * t.counts[c]! * (nominal ? 1 : (pos[a]! - pos[b]!) ** 2);
  }
  let expected = 0;
  if (nominal) {
    let squares = 0;
    for (const m of marg) squares += m * m;
    expected = total * total - squares;
  } else {
    let mean = 0;
    for (let v = 0; v < values.length; v++) mean += marg[v]! * pos[v]!;
    mean /= total;
    for (let v = 0; v < values.length; v++) expected += marg[v]! * (pos[v]! - mean) ** 2;
    expected *= 2 * total;
  }
  if (expected === 0) return null;
  return 1 - ((total - 1) * observed) / expected;
}

/** Pearson's r over the cells, each weighted by its count. */
export function pearsonOf(t: PairTable): number | null {
  return weightedPearson(t, t.xValues, t.yValues);
}

/** Spearman's ρ: Pearson's r on average ranks, the ranks read off the marginals. */
export function spearmanOf(t: PairTable): number | null {
  const rows = new Float64Array(t.xValues.length);
  const cols = new Float64Array(t.yValues.length);
  for (let c = 0; c < t.counts.length; c++) {
    rows[t.cellX[c]!]! += t.counts[c]!;
    cols[t.cellY[c]!]! += t.counts[c]!;
  }
  return weightedPearson(t, averageRanks(rows), averageRanks(cols));
}

/**
 * Kendall's τ-b from the cells: cells are sorted by x, so concordant and discordant pairs with the
 * cells of smaller x are counted with a Fenwick tree over y, O(cells log cells).
 */
export function kendallTauBOf(t: PairTable): number | null {
  const n = t.n;
  if (n < 2) return null;
  const ny = t.yValues.length;
  const tree = new Float64Array(ny + 1);
  const add = (j: number, m: number) => {
    for (let i = j + 1; i <= ny; i += i & -i) tree[i]! += m;
  };
  const below = (j: number) => {
    let s = 0;
    for (let i = j; i > 0; i -= i & -i) s += tree[i]!;
    return s;
  };
  const rows = new Float64Array(t.xValues.length);
  const cols = new Float64Array(ny);
  let concordant = 0;
  let discordant = 0;
  let seen = 0;
  let start = 0;
  while (start < t.counts.length) {
    let end = start;
    while (end < t.counts.length && t.cellX[end] === t.cellX[start]) end++;
    for (let c = start; c < end; c++) {
      const m = t.counts[c]!;
      if (m === 0) continue;
      const j = t.cellY[c]!;
      concordant += m * below(j);
      discordant += m * (seen - below(j + 1));
      rows[t.cellX[c]!]! += m;
      cols[j]! += m;
    }
    for (let c = start; c < end; c++) {
      add(t.cellY[c]!, t.counts[c]!);
      seen += t.counts[c]!;
    }
    start = end;
  }
  const pairs = (n * (n - 1)) / 2;
  let tiedX = 0;
  let tiedY = 0;
  for (const r of rows) tiedX += (r * (r - 1)) / 2;
  for (const c of cols) tiedY += (c * (c - 1)) / 2;
  if (tiedX === pairs || tiedY === pairs) return null;
  const tau = (concordant - discordant) / Math.sqrt(pairs - tiedX) / Math.sqrt(pairs - tiedY);
  return Math.max(-1, Math.min(1, tau));
}

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

function weightedPearson(t: PairTable, xs: ArrayLike<number>, ys: ArrayLike<number>): number | null {
  const n = t.n;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let c = 0; c < t.counts.length; c++) {
    mx += t.counts[c]! * xs[t.cellX[c]!]!;
    my += t.counts[c]! * ys[t.cellY[c]!]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let c = 0; c < t.counts.length; c++) {
    const m = t.counts[c]!;
    const dx = xs[t.cellX[c]!]! - mx;
    const dy = ys[t.cellY[c]!]! - my;
    sxy += m * dx * dy;
    sxx += m * dx * dx;
    syy += m * dy * dy;
  }
  // A constant side is detected exactly (as `pearson` does), not by a tolerance on sxx: a resample
  // that keeps one value leaves rounding noise of ~1e-30 there, not 0.
  if (singleValue(t, 'x') || singleValue(t, 'y') || sxx === 0 || syy === 0) return null;
  const r = sxy / Math.sqrt(sxx) / Math.sqrt(syy);
  return Math.max(-1, Math.min(1, r));
}

function singleValue(t: PairTable, side: 'x' | 'y'): boolean {
  const idx = side === 'x' ? t.cellX : t.cellY;
  let first = -1;
  for (let c = 0; c < t.counts.length; c++) {
    if (t.counts[c] === 0) continue;
    if (first === -1) first = idx[c]!;
    else if (idx[c] !== first) return false;
  }
  return true;
}

/** Average ranks (1-based) of values whose counts, in ascending value order, are `counts`. */
function averageRanks(counts: Float64Array): Float64Array {
  const ranks = new Float64Array(counts.length);
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    ranks[i] = before + (counts[i]! + 1) / 2;
    before += counts[i]!;
  }
  return ranks;
}

type Union = { values: Float64Array; xAt: Int32Array; yAt: Int32Array; of: Float64Array };
const unionCache = new WeakMap<Float64Array, Union>();

/** The union of x and y values (ascending) and where each x and y value sits in it (once per table). */
function unionOf(t: PairTable): Union {
  const cached = unionCache.get(t.xValues);
  if (cached && cached.of === t.yValues) return cached;
  const union = computeUnion(t);
  unionCache.set(t.xValues, union);
  return union;
}

function computeUnion(t: PairTable): Union {
  const values = Float64Array.from(new Set([...t.xValues, ...t.yValues])).sort();
  const at = new Map(Array.from(values, (v, i) => [v, i]));
  return {
    of: t.yValues,
    values,
    xAt: Int32Array.from(t.xValues, (v) => at.get(v)!),
    yAt: Int32Array.from(t.yValues, (v) => at.get(v)!),
  };
}

function coincidence(
  t: PairTable,
  values: Float64Array,
  xAt: Int32Array,
  yAt: Int32Array,
  marg: Float64Array,
) {
  const o = Array.from(values, () => new Array<number>(values.length).fill(0));
  for (let c = 0; c < t.counts.length; c++) {
    const a = xAt[t.cellX[c]!]!;
    const b = yAt[t.cellY[c]!]!;
    o[a]![b]! += t.counts[c]!;
    o[b]![a]! += t.counts[c]!;
  }
  return { values: [...values], o, marginals: [...marg], total: 2 * t.n, pairableUnits: t.n };
}

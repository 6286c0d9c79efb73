import { CitegeistError, quoteValue } from '../core/index.js';

/** Level of measurement; it picks the difference function δ² of Krippendorff's α. */
export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/**
 * A reliability data matrix: one row per rater (coder, annotator), one column per unit (item,
 * claim); `null` where a rater did not rate a unit. All rows must have the same length.
 */
export type ReliabilityData = readonly (readonly (number | null)[])[];

/** The coincidence matrix of Krippendorff (2011), over the distinct values that occur in pairable units. */
export interface CoincidenceMatrix {
  /** Distinct values, ascending. */
  values: number[];
  /** o[c][k]: coincidences of values[c] and values[k] (symmetric). */
  o: number[][];
  /** n_c = Σ_k o[c][k]. */
  marginals: number[];
  /** n = Σ_c n_c: the number of pairable values. */
  total: number;
  /** Units with at least two ratings (the others carry no information about agreement). */
  pairableUnits: number;
}

/**
 * Krippendorff's α = 1 − D_o / D_e for any number of raters, missing data and the four levels of
 * measurement, computed through the coincidence matrix as in Krippendorff (2011), "Computing
 * Krippendorff's Alpha-Reliability": α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck.
 * Units rated fewer than twice are left out. Returns `null` when α is undefined: no pairable
 * values, or no variation at all (every pairable value the same, so D_e = 0).
 */
export function krippendorffAlpha(data: ReliabilityData, level: MeasurementLevel): number | null {
  differenceFunction(level);
  return alphaFromCoincidence(coincidenceMatrix(data, level), level);
}

/**
 * α from a coincidence matrix already built (e.g. from the cell counts of two raters, which
 * `stats/agreement.ts` resamples): the same formula as `krippendorffAlpha`, without the raters.
 */
export function alphaFromCoincidence(m: CoincidenceMatrix, level: MeasurementLevel): number | null {
  const delta = differenceFunction(level);
  if (m.total < 2) return null;
  const d2 = delta(m);
  let observed = 0;
  let expected = 0;
  const v = m.values.length;
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      const d = d2(c, k);
      observed += m.o[c]![k]! * d;
      expected += m.marginals[c]! * m.marginals[k]! * d;
    }
  }
  if (expected === 0) return null;
  return 1 - ((m.total - 1) * observed) / expected;
}

/** Builds the coincidence matrix: each unit with m_u ≥ 2 values adds 1/(m_u − 1) per ordered pair. */
export function coincidenceMatrix(
  data: ReliabilityData,
  level: MeasurementLevel = 'nominal',
): CoincidenceMatrix {
  const units = validate(data, level);
  const pairable: number[][] = [];
  for (let u = 0; u < units; u++) {
    const present: number[] = [];
    for (const row of data) {
      const value = row[u];
      if (value !== null && value !== undefined) present.push(value);
    }
    if (present.length >= 2) pairable.push(present);
  }
  const values = [...new Set(pairable.flat())].sort((a, b) => a - b);
  const index = new Map(values.map((value, i) => [value, i]));
  const o = values.map(() => new Array<number>(values.length).fill(0));
  for (const present of pairable) {
    const weight = 1 / (present.length - 1);
    for (let i = 0; i < present.length; i++) {
      for (let j = 0; j < present.length; j++) {
        if (i !== j) o[index.get(present[i]!)!]![index.get(present[j]!)!]! += weight;
      }
    }
  }
  const marginals = o.map((row) => row.reduce((s, x) => s + x, 0));
  const total = marginals.reduce((s, x) => s + x, 0);
  return { values, o, marginals, total, pairableUnits: pairable.length };
}

type Delta = (m: CoincidenceMatrix) => (c: number, k: number) => number;

function differenceFunction(level: MeasurementLevel): Delta {
  switch (level) {
    case 'nominal':
      return () => (c, k) => (c === k ? 0 : 1);
    case 'ordinal':
      return ({ marginals }) => {
        // cumulative[i] = n_0 + … + n_{i−1}; δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)²
        const cumulative = [0];
        for (const n of marginals) cumulative.push(cumulative[cumulative.length - 1]! + n);
        return (c, k) => {
          const lo = Math.min(c, k);
          const hi = Math.max(c, k);
          const span = cumulative[hi + 1]! - cumulative[lo]! - (marginals[lo]! + marginals[hi]!) / 2;
          return span * span;
        };
      };
    case 'interval':
      return ({ values }) =>
        (c, k) =>
          (values[c]! - values[k]!) ** 2;
    case 'ratio':
      return ({ values }) =>
        (c, k) => {
          const sum = values[c]! + values[k]!;
          return sum === 0 ? 0 : ((values[c]! - values[k]!) / sum) ** 2;
        };
    default:
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `krippendorffAlpha: level of measurement ${quoteValue(level)} is not known.`,
        'Use one of "nominal", "ordinal", "interval", "ratio".',
      );
  }
}

/** Checks the matrix shape and values; returns the number of units. */
function validate(data: ReliabilityData, level: MeasurementLevel): number {
  if (!Array.isArray(data)) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `krippendorffAlpha: "data" must be an array of rater rows, got ${quoteValue(data)}.`,
      'Pass one array per rater, one entry per unit, null where the rater gave no rating.',
    );
  }
  const units = data[0]?.length ?? 0;
  data.forEach((row, r) => {
    if (!Array.isArray(row) || row.length !== units) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `krippendorffAlpha: rater row ${r} has ${Array.isArray(row) ? row.length : 'no'} entries; row 0 has ${units}.`,
        'Give every rater one entry per unit (null for a missing rating).',
      );
    }
    row.forEach((value, u) => {
      const ok = value === null || (typeof value === 'number' && Number.isFinite(value));
      if (!ok || (level === 'ratio' && value !== null && value < 0)) {
        throw new CitegeistError(
          'STATS_BAD_DATA',
          `krippendorffAlpha: argument "data" holds ${typeof value === 'number' ? String(value) : quoteValue(value)} at rater ${r}, unit ${u}; ${level === 'ratio' ? 'ratio data must be finite and ≥ 0' : 'ratings must be finite numbers or null'}.`,
          'Use null for a missing rating; code categories as numbers.',
        );
      }
    });
  });
  return units;
}

/**
 * Krippendorff's α from units given as the lists of values they received (who gave which value does
 * not enter α): the same α as `krippendorffAlpha` on the raters × units matrix, built in
 * O(Σ distinct values per unit²) without the matrix, for sets with many annotators (CrowdRAG-25's
 * 420 workers over 1,352 items) or many units.
 */
export function krippendorffAlphaOfUnits(
  units: readonly (readonly number[])[],
  level: MeasurementLevel,
): number | null {
  const values = [...new Set(units.flat())].sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [v, i]));
  const o = values.map(() => new Array<number>(values.length).fill(0));
  let pairableUnits = 0;
  for (const unit of units) {
    if (unit.length < 2) continue;
    pairableUnits++;
    const counts = new Map<number, number>();
    for (const v of unit) {
      if (!Number.isFinite(v)) {
        throw new CitegeistError(
          'STATS_BAD_DATA',
          `krippendorffAlphaOfUnits: a unit holds ${String(v)}; values must be finite numbers.`,
          'Leave a missing value out of its unit instead of writing NaN.',
        );
      }
      const i = index.get(v)!;
      counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    const weight = 1 / (unit.length - 1);
    for (const [c, nc] of counts) {
      for (const [k, nk] of counts) o[c]![k]! += (c === k ? nc * (nc - 1) : nc * nk) * weight;
    }
  }
  const marginals = o.map((row) => row.reduce((s, x) => s + x, 0));
  const total = marginals.reduce((s, x) => s + x, 0);
  return alphaFromCoincidence({ values, o, marginals, total, pairableUnits }, level);
}

import { REL_NONPOOL, REL_UNJUDGED, type ResRels } from '../res-rels.js';
import { atCutoffs, type MeasureDef, toLong } from './measure-def.js';

/** Measures at rank cut-offs or recall levels (m_P.c, m_recall.c, m_iprec_at_recall.c, …). */

const CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
const RECALL_LEVELS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

const cutLong = (
  name: string,
  description: string,
  defaults: number[],
  values: (rr: ResRels, level: number, cutoffs: readonly number[]) => number[],
): MeasureDef => ({
  name,
  description,
  params: 'cut-long',
  defaults,
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => values(v.resRels(), v.relevanceLevel, p.values),
});

export const P = cutLong(
  'P',
  'precision at cut-offs (missing ranks count as non-relevant)',
  CUTS,
  (rr, level, cuts) =>
    atCutoffs(
      rr.rels,
      rr.numRet,
      cuts,
      (r) => r >= level,
      (k, hits) => hits / k,
    ),
);

export const recall = cutLong('recall', 'recall at cut-offs', CUTS, (rr, level, cuts) =>
  rr.numRel === 0
    ? cuts.map(() => 0)
    : atCutoffs(
        rr.rels,
        rr.numRet,
        cuts,
        (r) => r >= level,
        (_k, hits) => hits / rr.numRel,
      ),
);

export const mapCut = cutLong('map_cut', 'average precision of the top k', CUTS, (rr, level, cuts) => {
  if (rr.numRel === 0) return cuts.map(() => 0);
  // Walk like atCutoffs, but accumulate precision at each relevant rank (m_map_cut.c).
  const out = cuts.map(() => 0);
  let c = 0;
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (i === cuts[c]) {
      out[c++] = sum / rr.numRel;
      if (c === cuts.length) break;
    }
    if ((rr.rels[i] as number) >= level) sum += ++relSoFar / (i + 1);
  }
  for (; c < cuts.length; c++) out[c] = sum / rr.numRel;
  return out;
});

export const relativeP = cutLong(
  'relative_P',
  'precision at k relative to the best possible, min(k, R)',
  CUTS,
  (rr, level, cuts) =>
    rr.numRel === 0
      ? cuts.map(() => 0)
      : atCutoffs(
          rr.rels,
          rr.numRet,
          cuts,
          (r) => r >= level,
          (k, hits) => hits / Math.min(k, rr.numRel),
        ),
);

export const success = cutLong(
  'success',
  '1 if a relevant document is in the top k',
  [1, 5, 10],
  (rr, level, cuts) =>
    atCutoffs(
      rr.rels,
      rr.numRet,
      cuts,
      (r) => r >= level,
      (_k, hits) => (hits ? 1 : 0),
    ),
);

export const unj = cutLong(
  'unj',
  'fraction of the top k not judged (not in the qrels, or negative grade)',
  [5, 10, 20],
  (rr, _level, cuts) =>
    atCutoffs(
      rr.rels,
      rr.numRet,
      cuts,
      (r) => r === REL_NONPOOL || r === REL_UNJUDGED,
      (k, n) => n / k,
    ),
);

/**
 * Recall level → number of relevant documents. trec_eval 10.0 rounds half away from zero
 * (lround); 9.x truncated p·R + 0.9, which the comment in m_iprec_at_recall.c still describes.
 */
export function recallCutoff(percent: number, numRel: number): number {
  const x = percent * numRel;
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** Interpolated precision at each recall level, as m_iprec_at_recall.c walks the ranking backwards. */
function interpolated(
  rr: ResRels,
  level: number,
  cutoffs: readonly number[],
  onCut: (cut: number, precision: number) => void,
): void {
  let cut = cutoffs.length - 1;
  while (cut >= 0 && (cutoffs[cut] as number) > rr.numRelRet) cut--;
  let intPrecis = rr.numRelRet / rr.numRet;
  let relSoFar = rr.numRelRet;
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    if (intPrecis < precis) intPrecis = precis;
    if ((rr.rels[i - 1] as number) >= level) {
      while (cut >= 0 && relSoFar === cutoffs[cut]) onCut(cut--, intPrecis);
      relSoFar--;
    }
  }
  while (cut >= 0) onCut(cut--, intPrecis);
}

export const iprecAtRecall: MeasureDef = {
  name: 'iprec_at_recall',
  description: 'interpolated precision at recall levels',
  params: 'cut-double',
  defaults: RECALL_LEVELS,
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const rr = v.resRels();
    const out = p.values.map(() => 0);
    const cutoffs = p.values.map((x) => recallCutoff(x, rr.numRel));
    interpolated(rr, v.relevanceLevel, cutoffs, (cut, precision) => {
      out[cut] = precision;
    });
    return out;
  },
};

export const elevenPtAvg: MeasureDef = {
  name: '11pt_avg',
  description: 'interpolated precision averaged over the recall levels given (default 11)',
  params: 'double-list',
  defaults: RECALL_LEVELS,
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const rr = v.resRels();
    if (p.values.length === 0) return [0];
    const cutoffs = p.values.map((x) => recallCutoff(x, rr.numRel));
    let sum = 0;
    interpolated(rr, v.relevanceLevel, cutoffs, (_cut, precision) => {
      sum += precision;
    });
    return [sum / p.values.length];
  },
};

/** Precision at multiples of R, m_Rprec_mult.c (its cut-offs round p·R + 0.9 down). */
export function rprecMult(rr: ResRels, level: number, multiples: readonly number[], out: number[]): void {
  const cutoffs = multiples.map((m) => toLong(m * rr.numRel + 0.9));
  let cut = multiples.length - 1;
  while (cut >= 0 && (cutoffs[cut] as number) > rr.numRet) {
    out[cut] = (out[cut] as number) + rr.numRelRet / (cutoffs[cut] as number);
    cut--;
  }
  let relSoFar = rr.numRelRet;
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    while (cut >= 0 && i === cutoffs[cut]) {
      out[cut] = (out[cut] as number) + precis;
      cut--;
    }
    if ((rr.rels[i - 1] as number) >= level) relSoFar--;
  }
}

export const rprecMultMeasure: MeasureDef = {
  name: 'Rprec_mult',
  description: 'precision at multiples of R (num_rel)',
  params: 'cut-double',
  defaults: [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0],
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const out = p.values.map(() => 0);
    rprecMult(v.resRels(), v.relevanceLevel, p.values, out);
    return out;
  },
};

/** m_relstring.c: one character per rank (grade 0–9, '>' above, '-' unpooled, '.' unjudged). */
export const relstring: MeasureDef = {
  name: 'relstring',
  description: 'the grades of the first N (default 10) documents as text (per topic only)',
  params: 'double-list',
  defaults: [10],
  input: 'qrels',
  perTopic: true,
  summary: 'none',
  compute: () => [0],
  text: (v, p) => {
    const rr = v.resRels();
    const len = Math.max(0, Math.min(toLong(p.values[0] ?? 0), rr.numRet));
    let s = '';
    for (let i = 0; i < len; i++) {
      const rel = rr.rels[i] as number;
      s +=
        rel > 9 ? '>' : rel >= 0 ? String(rel) : rel === REL_NONPOOL ? '-' : rel === REL_UNJUDGED ? '.' : '<';
    }
    return s;
  },
};

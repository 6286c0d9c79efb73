import { REL_NONPOOL, REL_UNJUDGED, type ResRels } from '../res-rels.js';
import type { MeasureDef } from './measure-def.js';

/** Whole-ranking measures over one merged topic (m_map.c, m_bpref.c, m_infap.c, …). */

/** trec_eval's floor before taking logs for geometric means (MIN_GEO_MEAN, trec_eval.h). */
const MIN_GEO_MEAN = 0.00001;
/** Smoothing in infAP (INFAP_EPSILON, trec_eval.h). */
const INFAP_EPSILON = 0.00001;

/** Sum of precision at each relevant rank, and how many relevant were seen (m_map.c). */
export function precisionSum(rr: ResRels, level: number): { sum: number; relSoFar: number } {
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if ((rr.rels[i] as number) >= level) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
  }
  return { sum, relSoFar };
}

function averagePrecision(rr: ResRels, level: number): number {
  const { sum, relSoFar } = precisionSum(rr, level);
  return relSoFar ? sum / rr.numRel : 0;
}

/** m_bpref.c: judged documents only; nonrelevant = judged below the level. */
function bpref(rr: ResRels, level: number): number {
  let numNonrel = 0;
  for (let j = 0; j < level; j++) numNonrel += rr.relLevels[j] ?? 0;
  let nonrelSoFar = 0;
  let value = 0;
  for (let j = 0; j < rr.numRet; j++) {
    const rel = rr.rels[j] as number;
    if (rel === REL_NONPOOL || rel === REL_UNJUDGED) continue;
    if (rel >= 0 && rel < level) nonrelSoFar++;
    else if (nonrelSoFar > 0) {
      value += 1 - Math.min(nonrelSoFar, rr.numRel) / Math.min(numNonrel, rr.numRel);
    } else value += 1;
  }
  return rr.numRel ? value / rr.numRel : value;
}

/** m_infap.c (Yilmaz and Aslam's inferred AP; pooled-but-unjudged documents are skipped). */
function infAP(rr: ResRels, level: number): number {
  let nonrel = 0;
  let rel = 0;
  let unjudged = 0;
  let value = 0;
  for (let j = 0; j < rr.numRet; j++) {
    const r = rr.rels[j] as number;
    if (r === REL_NONPOOL) continue;
    if (r === REL_UNJUDGED) {
      unjudged++;
      continue;
    }
    if (r >= 0 && r < level) nonrel++;
    else {
      rel++;
      if (j === 0) value += 1;
      else {
        const fj = j;
        value +=
          1 / (fj + 1) +
          (fj / (fj + 1)) *
            ((rel - 1 + nonrel + unjudged) / fj) *
            ((rel - 1 + INFAP_EPSILON) / (rel - 1 + nonrel + 2 * INFAP_EPSILON));
      }
    }
  }
  return rr.numRel ? value / rr.numRel : value;
}

const single = (
  name: string,
  description: string,
  value: (rr: ResRels, level: number) => number,
  summary: 'mean' | 'geometric' = 'mean',
): MeasureDef => ({
  name,
  description,
  params: 'none',
  input: 'qrels',
  perTopic: summary === 'mean',
  summary,
  compute: (v) => [value(v.resRels(), v.relevanceLevel)],
});

export const map = single('map', 'mean average precision', averagePrecision);

export const gmMap = single(
  'gm_map',
  'geometric mean of average precision (summary only)',
  (rr, level) => Math.log(Math.max(averagePrecision(rr, level), MIN_GEO_MEAN)),
  'geometric',
);

export const rprec = single('Rprec', 'precision after R (= num_rel) documents', (rr, level) => {
  const n = Math.min(rr.numRet, rr.numRel);
  if (n === 0) return 0;
  let hits = 0;
  for (let i = 0; i < n; i++) if ((rr.rels[i] as number) >= level) hits++;
  return hits / rr.numRel;
});

export const bprefMeasure = single('bpref', 'binary preference over judged documents', bpref);

export const gmBpref = single(
  'gm_bpref',
  'geometric mean of bpref (summary only)',
  (rr, level) => Math.log(Math.max(bpref(rr, level), MIN_GEO_MEAN)),
  'geometric',
);

export const recipRank = single(
  'recip_rank',
  'reciprocal rank of the first relevant document',
  (rr, level) => {
    for (let i = 0; i < rr.numRet; i++) if ((rr.rels[i] as number) >= level) return 1 / (i + 1);
    return 0;
  },
);

export const infAPMeasure = single('infAP', 'inferred AP (pooled but unjudged documents sampled)', infAP);

export const binG = single(
  'binG',
  'binary G: mean of 1/log2(2 + nonrelevant before each relevant)',
  (rr, level) => {
    let relSoFar = 0;
    let sum = 0;
    for (let i = 0; i < rr.numRet; i++) {
      if ((rr.rels[i] as number) >= level) {
        relSoFar++;
        sum += 1 / Math.log2(3 + i - relSoFar);
      }
    }
    return relSoFar ? sum / rr.numRel : 0;
  },
);

export const yaap = single(
  'yaap',
  'yet another AP: log((1 + sum P@rel) / (1 + R - sum P@rel))',
  (rr, level) => {
    const { sum } = precisionSum(rr, level);
    return Math.log((1 + sum) / (1 + rr.numRel - sum));
  },
);

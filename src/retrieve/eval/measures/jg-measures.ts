import { rprecMult } from './cutoff-measures.js';
import { atCutoffs, type MeasureDef } from './measure-def.js';
import { precisionSum } from './ranked-measures.js';

/**
 * Measures averaged over judgment groups (users) of `-R qrels_jg` (m_map_avgjg.c, m_P_avgjg.c,
 * m_Rprec_mult_avgjg.c): the topic value is the sum over groups, divided by their number when
 * there is more than one.
 */

function averageOverGroups(sums: number[], groups: number): number[] {
  return groups > 1 ? sums.map((s) => s / groups) : sums;
}

export const mapAvgjg: MeasureDef = {
  name: 'map_avgjg',
  description: 'mean average precision, averaged over judgment groups',
  params: 'none',
  input: 'qrels_jg',
  perTopic: true,
  summary: 'mean',
  compute: (v) => {
    const groups = v.resRelsJg();
    let value = 0;
    for (const rr of groups) {
      const { sum, relSoFar } = precisionSum(rr, v.relevanceLevel);
      if (relSoFar) value += sum / rr.numRel;
    }
    return averageOverGroups([value], groups.length);
  },
};

export const PAvgjg: MeasureDef = {
  name: 'P_avgjg',
  description: 'precision at cut-offs, averaged over judgment groups',
  params: 'cut-long',
  defaults: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  input: 'qrels_jg',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const groups = v.resRelsJg();
    const sums = p.values.map(() => 0);
    for (const rr of groups) {
      const level = v.relevanceLevel;
      atCutoffs(
        rr.rels,
        rr.numRet,
        p.values,
        (r) => r >= level,
        (k, hits) => hits / k,
      ).forEach((x, i) => {
        sums[i] = (sums[i] as number) + x;
      });
    }
    return averageOverGroups(sums, groups.length);
  },
};

export const rprecMultAvgjg: MeasureDef = {
  name: 'Rprec_mult_avgjg',
  description: 'precision at multiples of R, averaged over judgment groups',
  params: 'cut-double',
  defaults: [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0],
  input: 'qrels_jg',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const groups = v.resRelsJg();
    const sums = p.values.map(() => 0);
    for (const rr of groups) rprecMult(rr, v.relevanceLevel, p.values, sums);
    return averageOverGroups(sums, groups.length);
  },
};

import type { ResRels } from '../res-rels.js';
import type { MeasureDef, TopicView } from './measure-def.js';

/** Measures of the retrieved set as a whole, ignoring order (m_set_*.c, m_utility.c). */

const setMeasure = (name: string, description: string, value: (rr: ResRels) => number): MeasureDef => ({
  name,
  description,
  params: 'none',
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v) => [value(v.resRels())],
});

export const setP = setMeasure('set_P', 'relevant retrieved / retrieved', (rr) =>
  rr.numRet ? rr.numRelRet / rr.numRet : 0,
);

export const setRelativeP = setMeasure('set_relative_P', 'relevant retrieved / min(retrieved, R)', (rr) =>
  rr.numRet && rr.numRel ? rr.numRelRet / Math.min(rr.numRet, rr.numRel) : 0,
);

export const setRecall = setMeasure('set_recall', 'relevant retrieved / R', (rr) =>
  rr.numRel ? rr.numRelRet / rr.numRel : 0,
);

export const setMap = setMeasure('set_map', 'set precision × set recall', (rr) =>
  rr.numRet && rr.numRel ? (rr.numRelRet * rr.numRelRet) / (rr.numRet * rr.numRel) : 0,
);

export const setF: MeasureDef = {
  name: 'set_F',
  description: 'weighted harmonic mean of set precision and recall (parameter: weight of recall, default 1)',
  params: 'double-list',
  defaults: [1.0],
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const rr = v.resRels();
    if (!rr.numRelRet) return [0];
    const P = rr.numRelRet / rr.numRet;
    const R = rr.numRelRet / rr.numRel;
    const x = p.values[0] as number;
    return [((x + 1.0) * P * R) / (x * P + R)];
  },
};

export const utility: MeasureDef = {
  name: 'utility',
  description:
    'a·relret + b·nonrelret + c·relnotret + d·nonrelnotret (parameters a,b,c,d; default 1,-1,0,0; d needs -N)',
  params: 'double-list',
  defaults: [1.0, -1.0, 0.0, 0.0],
  exactParams: 4,
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v: TopicView, p) => {
    const rr = v.resRels();
    const [a, b, c, d] = p.values as [number, number, number, number];
    return [
      a * rr.numRelRet +
        b * (rr.numRet - rr.numRelRet) +
        c * (rr.numRel - rr.numRelRet) +
        d * (v.numDocsInColl + rr.numRelRet - rr.numRet - rr.numRel),
    ];
  },
};

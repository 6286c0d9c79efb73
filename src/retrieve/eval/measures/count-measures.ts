import type { MeasureDef } from './measure-def.js';

/** Bookkeeping measures: run tag, topic count and document counts (m_runid.c, m_num_*.c). */

export const runid: MeasureDef = {
  name: 'runid',
  description: 'run tag of the last line of the run file (summary only)',
  params: 'none',
  input: 'any',
  perTopic: false,
  summary: 'runid',
  compute: () => [0],
};

export const numQ: MeasureDef = {
  name: 'num_q',
  description: 'number of topics evaluated (with -c, every qrels topic)',
  params: 'none',
  input: 'any',
  integer: true,
  perTopic: false,
  summary: 'count',
  compute: () => [1],
};

export const numRet: MeasureDef = {
  name: 'num_ret',
  description: 'documents retrieved (summary: sum)',
  params: 'none',
  input: 'qrels',
  integer: true,
  perTopic: true,
  summary: 'sum',
  compute: (v) => [v.resRels().numRet],
};

export const numRel: MeasureDef = {
  name: 'num_rel',
  description: 'relevant documents (summary: sum; with -c, every qrels judgement with grade > 0)',
  params: 'none',
  input: 'qrels',
  integer: true,
  perTopic: true,
  summary: 'num_rel',
  compute: (v) => [v.resRels().numRel],
};

export const numRelRet: MeasureDef = {
  name: 'num_rel_ret',
  description: 'relevant documents retrieved (summary: sum)',
  params: 'none',
  input: 'qrels',
  integer: true,
  perTopic: true,
  summary: 'sum',
  compute: (v) => [v.resRels().numRelRet],
};

export const numNonrelJudgedRet: MeasureDef = {
  name: 'num_nonrel_judged_ret',
  description: 'judged non-relevant documents retrieved (summary: sum)',
  params: 'none',
  input: 'qrels',
  integer: true,
  perTopic: true,
  summary: 'sum',
  compute: (v) => {
    const rr = v.resRels();
    return [rr.numRet - rr.numNonpool - rr.numUnjudged - rr.numRelRet];
  },
};

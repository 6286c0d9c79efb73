import { REL_NONPOOL, REL_UNJUDGED, type ResRels } from './res-rels.js';

/** trec_eval's floor for the geometric mean (MIN_GEO_MEAN). */
const MIN_GEO_MEAN = 0.00001;

export type ParamKind = 'none' | 'long-cutoffs' | 'double-cutoffs' | 'gain-pairs';

/** Parsed measure parameters: cutoffs (sorted ascending) or `rel_level=gain` pairs. */
export interface MeasureParams {
  cutoffs: number[];
  pairs: { level: number; gain: number }[];
  /** The parameter text as given (`5,10`), used in value names like trec_eval does. */
  printable: string | null;
}

export interface MeasureContext {
  relevanceLevel: number;
  params: MeasureParams;
}

/**
 * One trec_eval measure: how its values are named, computed for a topic, printed and summarised.
 * `summary`: `mean` over topics, `sum` of topic values, `gm` geometric mean, `count` of topics,
 * `runid` (the run's tag).
 */
export interface MeasureDef {
  name: string;
  description: string;
  params: ParamKind;
  defaults: number[];
  integer: boolean;
  perQuery: boolean;
  summary: 'mean' | 'sum' | 'gm' | 'count' | 'runid';
  compute(rr: ResRels, ctx: MeasureContext): number[];
}

/** Relevant documents (grade ≥ level) in the top `k` ranks. */
function relInTop(rr: ResRels, k: number, level: number): number {
  const n = Math.min(k, rr.numRet);
  let count = 0;
  for (let i = 0; i < n; i++) if ((rr.rels[i] as number) >= level) count++;
  return count;
}

function averagePrecision(rr: ResRels, level: number): number {
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if ((rr.rels[i] as number) >= level) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
  }
  return relSoFar ? sum / rr.numRel : 0;
}

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

function iprecAtRecall(rr: ResRels, level: number, percents: number[]): number[] {
  const values = percents.map(() => 0);
  const cutoffs = percents.map((p) => Math.trunc(p * rr.numRel + 0.9));
  let cut = cutoffs.length - 1;
  while (cut >= 0 && (cutoffs[cut] as number) > rr.numRelRet) cut--;
  let intPrecis = rr.numRet ? rr.numRelRet / rr.numRet : 0;
  let relSoFar = rr.numRelRet;
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    if (intPrecis < precis) intPrecis = precis;
    if ((rr.rels[i - 1] as number) >= level) {
      while (cut >= 0 && relSoFar === cutoffs[cut]) values[cut--] = intPrecis;
      relSoFar--;
    }
  }
  while (cut >= 0) values[cut--] = intPrecis;
  return values;
}

/** nDCG@cutoffs with gain = grade and discount log2(rank+1); ideal from the qrels grades. */
function ndcgCut(rr: ResRels, cutoffs: number[]): number[] {
  const ideal: number[] = [];
  for (let level = rr.numRelLevels - 1; level > 0; level--) {
    for (let c = 0; c < (rr.relLevels[level] ?? 0); c++) ideal.push(level);
  }
  return cutoffs.map((k) => {
    let dcg = 0;
    for (let i = 0; i < Math.min(k, rr.numRet); i++) {
      const gain = rr.rels[i] as number;
      if (gain > 0) dcg += gain / Math.log2(i + 2);
    }
    let idcg = 0;
    for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += (ideal[i] as number) / Math.log2(i + 2);
    return idcg > 0 ? dcg / idcg : dcg;
  });
}

interface Gain {
  level: number;
  gain: number;
  count: number;
}

/** Full-ranking nDCG (trec_eval `ndcg`), with optional `level=gain` overrides. */
function ndcg(rr: ResRels, pairs: MeasureParams['pairs']): number {
  const gains: Gain[] = pairs.map((p) => ({ level: p.level, gain: p.gain, count: 0 }));
  for (let level = 0; level < rr.numRelLevels; level++) {
    const given = gains.find((g) => g.level === level);
    if (given) given.count = rr.relLevels[level] ?? 0;
    else gains.push({ level, gain: level, count: rr.relLevels[level] ?? 0 });
  }
  gains.sort((a, b) => a.gain - b.gain);
  const gainOf = (rel: number) => gains.find((g) => g.level === rel)?.gain ?? 0;
  let dcg = 0;
  let idcg = 0;
  let cur = gains.length - 1;
  let idealGain = cur >= 0 ? (gains[cur] as Gain).gain : 0;
  let atLevel = 0;
  const advanceIdeal = (i: number) => {
    atLevel++;
    while (cur >= 0 && atLevel > (gains[cur] as Gain).count) {
      atLevel = 1;
      cur--;
      idealGain = cur >= 0 ? (gains[cur] as Gain).gain : 0;
    }
    if (idealGain > 0) idcg += idealGain / Math.log2(i + 2);
  };
  let i = 0;
  for (; i < rr.numRet && idealGain > 0; i++) {
    const g = gainOf(rr.rels[i] as number);
    if (g !== 0) dcg += g / Math.log2(i + 2);
    advanceIdeal(i);
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.rels[i] as number);
    if (g !== 0) dcg += g / Math.log2(i + 2);
  }
  for (; idealGain > 0; i++) advanceIdeal(i);
  return idcg > 0 ? dcg / idcg : 0;
}

const CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

/** The measures we implement, in the order trec_eval 10.0 computes and prints them. */
export const MEASURES: readonly MeasureDef[] = [
  {
    name: 'runid',
    description: 'run tag of the last line of the run file (summary only)',
    params: 'none',
    defaults: [],
    integer: false,
    perQuery: false,
    summary: 'runid',
    compute: () => [0],
  },
  {
    name: 'num_q',
    description: 'number of topics averaged over',
    params: 'none',
    defaults: [],
    integer: true,
    perQuery: false,
    summary: 'count',
    compute: () => [1],
  },
  {
    name: 'num_ret',
    description: 'retrieved documents (summary: sum)',
    params: 'none',
    defaults: [],
    integer: true,
    perQuery: true,
    summary: 'sum',
    compute: (rr) => [rr.numRet],
  },
  {
    name: 'num_rel',
    description: 'relevant documents (summary: sum)',
    params: 'none',
    defaults: [],
    integer: true,
    perQuery: true,
    summary: 'sum',
    compute: (rr) => [rr.numRel],
  },
  {
    name: 'num_rel_ret',
    description: 'relevant retrieved documents (summary: sum)',
    params: 'none',
    defaults: [],
    integer: true,
    perQuery: true,
    summary: 'sum',
    compute: (rr) => [rr.numRelRet],
  },
  {
    name: 'map',
    description: 'mean average precision',
    params: 'none',
    defaults: [],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => [averagePrecision(rr, c.relevanceLevel)],
  },
  {
    name: 'gm_map',
    description: 'geometric mean of average precision (summary only)',
    params: 'none',
    defaults: [],
    integer: false,
    perQuery: false,
    summary: 'gm',
    compute: (rr, c) => [Math.log(Math.max(averagePrecision(rr, c.relevanceLevel), MIN_GEO_MEAN))],
  },
  {
    name: 'Rprec',
    description: 'precision after R (= num_rel) documents',
    params: 'none',
    defaults: [],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => {
      const n = Math.min(rr.numRet, rr.numRel);
      return [n === 0 ? 0 : relInTop(rr, n, c.relevanceLevel) / rr.numRel];
    },
  },
  {
    name: 'bpref',
    description: 'binary preference',
    params: 'none',
    defaults: [],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => [bpref(rr, c.relevanceLevel)],
  },
  {
    name: 'recip_rank',
    description: 'reciprocal rank of the first relevant document',
    params: 'none',
    defaults: [],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => {
      for (let i = 0; i < rr.numRet; i++)
        if ((rr.rels[i] as number) >= c.relevanceLevel) return [1 / (i + 1)];
      return [0];
    },
  },
  {
    name: 'iprec_at_recall',
    description: 'interpolated precision at recall levels',
    params: 'double-cutoffs',
    defaults: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => iprecAtRecall(rr, c.relevanceLevel, c.params.cutoffs),
  },
  {
    name: 'P',
    description: 'precision at cutoffs (missing ranks count as non-relevant)',
    params: 'long-cutoffs',
    defaults: CUTS,
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => c.params.cutoffs.map((k) => relInTop(rr, k, c.relevanceLevel) / k),
  },
  {
    name: 'recall',
    description: 'recall at cutoffs',
    params: 'long-cutoffs',
    defaults: CUTS,
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) =>
      c.params.cutoffs.map((k) => (rr.numRel ? relInTop(rr, k, c.relevanceLevel) / rr.numRel : 0)),
  },
  {
    name: 'ndcg',
    description: 'nDCG over the whole ranking (gain = grade unless `level=gain` pairs are given)',
    params: 'gain-pairs',
    defaults: [],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => [ndcg(rr, c.params.pairs)],
  },
  {
    name: 'ndcg_cut',
    description: 'nDCG at cutoffs (gain = grade, discount log2(rank+1))',
    params: 'long-cutoffs',
    defaults: CUTS,
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => ndcgCut(rr, c.params.cutoffs),
  },
  {
    name: 'success',
    description: '1 if a relevant document is in the top k',
    params: 'long-cutoffs',
    defaults: [1, 5, 10],
    integer: false,
    perQuery: true,
    summary: 'mean',
    compute: (rr, c) => c.params.cutoffs.map((k) => (relInTop(rr, k, c.relevanceLevel) > 0 ? 1 : 0)),
  },
];

/** trec_eval's measure-set nicknames, restricted to the measures above. */
export const NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  official: [
    'runid',
    'num_q',
    'num_ret',
    'num_rel',
    'num_rel_ret',
    'map',
    'gm_map',
    'Rprec',
    'bpref',
    'recip_rank',
    'iprec_at_recall',
    'P',
  ],
  all_trec: MEASURES.map((m) => m.name),
};

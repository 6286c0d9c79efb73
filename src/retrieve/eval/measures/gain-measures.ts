import type { ResRels } from '../res-rels.js';
import type { MeasureDef, MeasureParams } from './measure-def.js';

/** Graded-gain measures: nDCG and its variants, G, RBP (m_ndcg.c, m_Rndcg.c, m_G.c, m_rbp.c, …). */

interface Gain {
  level: number;
  gain: number;
  count: number;
}

/** `-1`, `+2`, `3`: gain_init.c only takes integer keys as relevance levels (so `p=0.8` is skipped). */
const INTEGER_KEY = /^[+-]?\d+$/;

/**
 * gain_init.c setup_gains: given `level=gain` pairs first, then every judged level not given with
 * gain = level; sorted by gain. The C comparator returns the gain difference cast to int, so gains
 * closer than 1 compare equal and keep an unspecified qsort order; a stable sort on the truncated
 * difference matches it whenever the given gains are whole numbers or at least 1 apart.
 */
function setupGains(rr: ResRels, params: MeasureParams): Gain[] {
  const gains: Gain[] = [];
  for (const p of params.pairs) {
    if (INTEGER_KEY.test(p.key)) gains.push({ level: Number.parseInt(p.key, 10), gain: p.value, count: 0 });
  }
  const given = gains.length;
  for (let level = 0; level < rr.numRelLevels; level++) {
    let j = 0;
    while (j < given && (gains[j] as Gain).level !== level) j++;
    if (j < given) (gains[j] as Gain).count = rr.relLevels[level] ?? 0;
    else gains.push({ level, gain: level, count: rr.relLevels[level] ?? 0 });
  }
  return gains.sort((a, b) => Math.trunc(a.gain - b.gain));
}

function gainOf(rel: number, gains: readonly Gain[]): number {
  for (const g of gains) if (g.level === rel) return g.gain;
  return 0;
}

/** Walks the ideal ranking: the gain at each next position, highest gain levels first. */
class IdealGains {
  private cur: number;
  private atLevel = 0;
  gain: number;
  constructor(private readonly gains: readonly Gain[]) {
    this.cur = gains.length - 1;
    this.gain = this.cur >= 0 ? (gains[this.cur] as Gain).gain : 0;
  }
  next(): number {
    this.atLevel++;
    while (this.cur >= 0 && this.atLevel > (this.gains[this.cur] as Gain).count) {
      this.atLevel = 1;
      this.cur--;
      this.gain = this.cur >= 0 ? (this.gains[this.cur] as Gain).gain : 0;
    }
    return this.gain;
  }
}

/** m_ndcg.c te_calc_ndcg: DCG of the run and of the ideal ranking. */
function dcgs(rr: ResRels, params: MeasureParams): { dcg: number; ideal: number } {
  const gains = setupGains(rr, params);
  const ideal = new IdealGains(gains);
  let dcg = 0;
  let idcg = 0;
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    if (g !== 0) dcg += g / Math.log2(i + 2);
    const ig = ideal.next();
    if (ig > 0) idcg += ig / Math.log2(i + 2);
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    if (g !== 0) dcg += g / Math.log2(i + 2);
  }
  for (; ideal.gain > 0; i++) {
    const ig = ideal.next();
    if (ig > 0) idcg += ig / Math.log2(i + 2);
  }
  return { dcg, ideal: idcg };
}

const gainMeasure = (
  name: string,
  description: string,
  value: (rr: ResRels, params: MeasureParams) => number,
  sharedParams?: string,
): MeasureDef => ({
  name,
  description,
  params: 'pairs',
  ...(sharedParams ? { sharedParams } : {}),
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => [value(v.resRels(), p)],
});

export const dcg = gainMeasure('dcg', 'discounted cumulative gain', (rr, p) => dcgs(rr, p).dcg, 'ndcg');
export const idealDcg = gainMeasure(
  'ideal_dcg',
  'ideal discounted cumulative gain',
  (rr, p) => dcgs(rr, p).ideal,
  'ndcg',
);
export const ndcg = gainMeasure(
  'ndcg',
  'nDCG over the whole ranking (gain = grade unless level=gain pairs are given)',
  (rr, p) => {
    const d = dcgs(rr, p);
    return d.ideal > 0 ? d.dcg / d.ideal : 0;
  },
  'ndcg',
);

/** m_ndcg_rel.c: nDCG averaged over the ranks of relevant documents (unretrieved ones at the end). */
export const ndcgRel = gainMeasure('ndcg_rel', 'nDCG averaged over the relevant documents', (rr, p) => {
  const gains = setupGains(rr, p);
  const ideal = new IdealGains(gains);
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    if (g !== 0) dcg += g / Math.log2(i + 2);
    const ig = ideal.next();
    if (ig > 0) {
      numRel++;
      idcg += ig / Math.log2(i + 2);
    }
    if (g > 0) {
      sum += dcg / idcg;
      numRelRet++;
    }
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    if (g !== 0) dcg += g / Math.log2(i + 2);
    if (g > 0) {
      sum += dcg / idcg;
      numRelRet++;
    }
  }
  for (; ideal.gain > 0; i++) {
    const ig = ideal.next();
    if (ig > 0) {
      numRel++;
      idcg += ig / Math.log2(i + 2);
    }
  }
  sum += ((numRel - numRelRet) * dcg) / idcg;
  return sum > 0 ? sum / numRel : 0;
});

/** m_Rndcg.c: nDCG averaged at the ranks where the ideal gain level changes. */
export const rndcg = gainMeasure('Rndcg', 'nDCG averaged at the changes of ideal gain level', (rr, p) => {
  const gains = setupGains(rr, p);
  if (rr.numRel === 0) return 0;
  const ideal = new IdealGains(gains);
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let changes = 0;
  let oldGain = ideal.gain;
  const atChange = () => {
    if (oldGain !== ideal.gain) {
      if (idcg > 0) {
        sum += dcg / idcg;
        changes++;
      }
      oldGain = ideal.gain;
    }
  };
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    ideal.next();
    atChange();
    if (g !== 0) dcg += g / Math.log2(i + 2);
    if (ideal.gain > 0) idcg += ideal.gain / Math.log2(i + 2);
  }
  if (i < rr.numRet) {
    for (; i < rr.numRet; i++) {
      const g = gainOf(rr.rels[i] as number, gains);
      if (g !== 0) dcg += g / Math.log2(i + 2);
    }
    if (idcg > 0) {
      sum += dcg / idcg;
      changes++;
    }
  }
  for (; ideal.gain > 0; i++) {
    ideal.next();
    atChange();
    if (ideal.gain > 0) idcg += ideal.gain / Math.log2(i + 2);
  }
  return sum / changes;
});

/** m_G.c: gain discounted by the cost (ideal gain, at least 1) spent so far. */
export const G = gainMeasure('G', 'G: gain discounted by log2(2 + cost so far − gain so far)', (rr, p) => {
  const gains = setupGains(rr, p);
  const ideal = new IdealGains(gains);
  const minCost = 1;
  let result = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  let i = 0;
  for (; i < rr.numRet && ideal.gain > 0; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    sumResults += g;
    const ig = ideal.next();
    if (ig > 0) sumIdeal += ig;
    sumCost += Math.max(ig, minCost);
    if (g !== 0) result += g / Math.log2(2 + sumCost - sumResults);
  }
  for (; i < rr.numRet; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    sumResults += g;
    sumCost += minCost;
    if (g !== 0) result += g / Math.log2(2 + sumCost - sumResults);
  }
  while (ideal.gain > 0) {
    const ig = ideal.next();
    if (ig > 0) sumIdeal += ig;
  }
  return sumIdeal > 0 ? result / sumIdeal : 0;
});

/** m_ndcg_cut.c: gain = grade (no parameters), ideal from the judged grades. */
export const ndcgCut: MeasureDef = {
  name: 'ndcg_cut',
  description: 'nDCG at cut-offs (gain = grade, discount log2(rank + 1))',
  params: 'cut-long',
  defaults: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  input: 'qrels',
  perTopic: true,
  summary: 'mean',
  compute: (v, p) => {
    const rr = v.resRels();
    const cuts = p.values;
    const out = cuts.map(() => 0);
    let c = 0;
    let sum = 0;
    for (let i = 0; i < rr.numRet; i++) {
      if (i === cuts[c]) {
        out[c++] = sum;
        if (c === cuts.length) break;
      }
      const gain = rr.rels[i] as number;
      if (gain > 0) sum += gain / Math.log2(i + 2);
    }
    for (; c < cuts.length; c++) out[c] = sum;
    c = 0;
    let level = rr.numRelLevels - 1;
    let atLevel = 0;
    let idcg = 0;
    for (let i = 0; ; i++) {
      atLevel++;
      while (level > 0 && atLevel > (rr.relLevels[level] ?? 0)) {
        level--;
        atLevel = 1;
      }
      if (level === 0) break;
      if (i === cuts[c]) {
        if (idcg > 0) out[c] = (out[c] as number) / idcg;
        if (++c === cuts.length) break;
      }
      idcg += level / Math.log2(i + 2);
    }
    for (; c < cuts.length; c++) if (idcg > 0) out[c] = (out[c] as number) / idcg;
    return out;
  },
};

function persistence(params: MeasureParams): number {
  let p = 0.9;
  for (const pair of params.pairs) if (pair.key === 'p') p = pair.value;
  return p;
}

/** m_rbp.c: rank-biased precision with gains scaled into [0, 1]. */
export const rbp = gainMeasure('rbp', 'rank-biased precision (persistence p, default 0.9)', (rr, params) => {
  const p = persistence(params);
  const gains = setupGains(rr, params);
  // The C leaves min and max uninitialised before this scan; starting them at 0 is what it
  // computes when that stack memory is zero (gain 0 for grade 0 makes the difference moot).
  let min = 0;
  let max = 0;
  for (const g of gains) {
    if (g.gain < min) min = g.gain;
    if (g.gain > max) max = g.gain;
  }
  if (min < 0 || max > 1) for (const g of gains) g.gain = (g.gain - min) / (max - min);
  let sum = 0;
  let cur = 1;
  for (let i = 0; i < rr.numRet; i++) {
    const g = gainOf(rr.rels[i] as number, gains);
    if (g !== 0) sum += g * cur;
    cur *= p;
  }
  return (1 - p) * sum;
});

/** m_rbp_resid.c: the most RBP could rise if every unjudged retrieved document had full gain. */
export const rbpResid = gainMeasure('rbp_resid', 'RBP residual from unjudged documents', (rr, params) => {
  const p = persistence(params);
  let unjudged = 0;
  let sum = 0;
  let cur = 1;
  for (let i = 0; i < rr.numRet; i++) {
    if ((rr.rels[i] as number) < 0) {
      unjudged++;
      sum += cur;
    }
    cur *= p;
  }
  return unjudged ? cur + (1 - p) * sum : 0;
});

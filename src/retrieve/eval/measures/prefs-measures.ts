import type { PrefsJg, ResultsPrefs } from '../prefs-counts.js';
import type { MeasureDef } from './measure-def.js';

/**
 * Preference measures of `-R prefs` / `-R qrels_prefs` (m_prefs_*.c). "ret" variants count only
 * pairs with both documents retrieved, "imp" variants also pairs with one retrieved, the plain
 * ones every pair (a pair with neither retrieved counts as a failure).
 */

type Counts = 'all' | 'ret' | 'imp';

const fulfilled = (jg: PrefsJg, c: Counts) => jg.fulfilledRet + (c === 'ret' ? 0 : jg.fulfilledImp);
const possible = (jg: PrefsJg, c: Counts) =>
  jg.possibleRet + (c === 'ret' ? 0 : jg.possibleImp) + (c === 'all' ? jg.possibleNotOccur : 0);

const prefsMeasure = (
  name: string,
  description: string,
  value: (rp: ResultsPrefs) => number,
  integer = false,
): MeasureDef => ({
  name,
  description,
  params: 'none',
  input: 'prefs',
  ...(integer ? { integer } : {}),
  perTopic: true,
  summary: integer ? 'sum' : 'mean',
  compute: (v) => [value(v.prefs())],
});

const sumOver = (rp: ResultsPrefs, f: (jg: PrefsJg) => number) => rp.jgs.reduce((s, jg) => s + f(jg), 0);

export const prefsNumPrefsPoss = prefsMeasure(
  'prefs_num_prefs_poss',
  'preferences possible, retrieved or not (summary: sum)',
  (rp) => sumOver(rp, (jg) => possible(jg, 'all')),
  true,
);
export const prefsNumPrefsFul = prefsMeasure(
  'prefs_num_prefs_ful',
  'preferences fulfilled, implied ones included (summary: sum)',
  (rp) => sumOver(rp, (jg) => fulfilled(jg, 'all')),
  true,
);
export const prefsNumPrefsFulRet = prefsMeasure(
  'prefs_num_prefs_ful_ret',
  'preferences fulfilled among retrieved documents (summary: sum)',
  (rp) => sumOver(rp, (jg) => fulfilled(jg, 'ret')),
  true,
);

/** fulfilled / possible over all judgment groups together (m_prefs_simp*.c). */
const simple = (c: Counts) => (rp: ResultsPrefs) => {
  const poss = sumOver(rp, (jg) => possible(jg, c));
  return poss ? sumOver(rp, (jg) => fulfilled(jg, c)) / poss : 0;
};

/** Mean over document pairs of the share of groups that prefer them in retrieved order (m_prefs_pair*.c). */
const pairs = (c: Counts) => (rp: ResultsPrefs) => {
  const n = rp.numJudged;
  const njr = rp.numJudgedRet;
  let sum = 0;
  let count = 0;
  const visit = (i: number, j: number, score: boolean) => {
    const ij = rp.counts[i * n + j] as number;
    const ji = rp.counts[j * n + i] as number;
    if (ij || ji) {
      count++;
      if (score) sum += ij / (ij + ji);
    }
  };
  for (let i = 0; i < njr; i++) for (let j = i + 1; j < njr; j++) visit(i, j, true);
  if (c !== 'ret') for (let i = 0; i < njr; i++) for (let j = njr; j < n; j++) visit(i, j, true);
  if (c === 'all') for (let i = njr; i < n; i++) for (let j = i + 1; j < n; j++) visit(i, j, false);
  return count ? sum / count : 0;
};

/** Mean over judgment groups of fulfilled / possible (m_prefs_avgjg*.c). */
const perGroup = (c: Counts) => (rp: ResultsPrefs) => {
  let sum = 0;
  for (const jg of rp.jgs) {
    const poss = possible(jg, c);
    if (poss) sum += fulfilled(jg, c) / poss;
  }
  return sum > 0 ? sum / rp.jgs.length : 0;
};

/**
 * m_prefs_avgjg_Rnonrel.c / _ret.c recalculate(): counts again with only the first R (by id)
 * nonrelevant documents. Both C versions pair every class, the nonrelevant one included, with the
 * shortened nonrelevant class; that is kept.
 */
function recalculate(jg: PrefsJg, rp: ResultsPrefs, retOnly: boolean): { ful: number; poss: number } {
  const njr = rp.numJudgedRet;
  let ful = 0;
  let poss = 0;
  if (jg.ecs) {
    const ecs = jg.ecs;
    const keep = retOnly ? jg.numRelRet : jg.numRel;
    const shortNonrel = (ecs[ecs.length - 1]?.ids ?? []).slice(0, keep);
    const count = (a: number, b: number) => {
      if (a < b && (retOnly || a < njr)) ful++;
      else poss++;
    };
    // Ids in a class ascend, so the retrieved ones are a prefix (the C loops stop at the first other).
    const ids = (list: number[]) => (retOnly ? list.filter((x) => x < njr) : list);
    for (let e1 = 0; e1 < ecs.length; e1++) {
      for (let e2 = e1 + 1; e2 < ecs.length - 1; e2++) {
        for (const a of ids((ecs[e1] as { ids: number[] }).ids))
          for (const b of ids((ecs[e2] as { ids: number[] }).ids)) count(a, b);
      }
    }
    for (const ec of ecs) for (const a of ids(ec.ids)) for (const b of ids(shortNonrel)) count(a, b);
    return { ful, poss: poss + ful };
  }
  const a = jg.matrix as Uint8Array;
  const rel = jg.relArray as Float64Array;
  const n = rp.numJudged;
  const scanTo = retOnly ? njr : n;
  let firstDiscarded = 0;
  let seen = 0;
  for (; firstDiscarded < scanTo; firstDiscarded++) {
    if (rel[firstDiscarded] === 0 && ++seen === jg.numRel + 1) break;
  }
  const dropped = (i: number) => i >= firstDiscarded && rel[i] === 0;
  const rows = retOnly ? njr : n;
  for (let i = 0; i < rows; i++) {
    if (dropped(i)) continue;
    for (let j = 0; j < rows; j++) {
      if (j === i || dropped(j) || !a[i * n + j]) continue;
      if (i < njr && j < njr) i < j ? ful++ : poss++;
      else if (i < njr) ful++;
      else poss++;
    }
  }
  return { ful, poss: poss + ful };
}

const rNonrel = (retOnly: boolean) => (rp: ResultsPrefs) => {
  let sum = 0;
  for (const jg of rp.jgs) {
    const R = retOnly ? jg.numRelRet : jg.numRel;
    const N = retOnly ? jg.numNonrelRet : jg.numNonrel;
    let ful: number;
    let poss: number;
    if (R >= N) {
      ful = fulfilled(jg, retOnly ? 'ret' : 'all') + jg.numRelRet * (R - N);
      // Both C versions add num_rel (not num_rel_ret) × (R − N) possible preferences.
      poss = possible(jg, retOnly ? 'ret' : 'all') + jg.numRel * (R - N);
    } else ({ ful, poss } = recalculate(jg, rp, retOnly));
    sum += ful / poss;
  }
  return sum > 0 ? sum / rp.jgs.length : 0;
};

export const prefsSimp = prefsMeasure('prefs_simp', 'preferences fulfilled / possible', simple('all'));
export const prefsPair = prefsMeasure(
  'prefs_pair',
  'mean over document pairs of the fulfilled share',
  pairs('all'),
);
export const prefsAvgjg = prefsMeasure(
  'prefs_avgjg',
  'fulfilled / possible per judgment group, averaged',
  perGroup('all'),
);
export const prefsAvgjgRnonrel = prefsMeasure(
  'prefs_avgjg_Rnonrel',
  'prefs_avgjg with nonrelevant documents per group cut to R',
  rNonrel(false),
);
export const prefsSimpRet = prefsMeasure(
  'prefs_simp_ret',
  'prefs_simp over retrieved pairs only',
  simple('ret'),
);
export const prefsPairRet = prefsMeasure(
  'prefs_pair_ret',
  'prefs_pair over retrieved pairs only',
  pairs('ret'),
);
export const prefsAvgjgRet = prefsMeasure(
  'prefs_avgjg_ret',
  'prefs_avgjg over retrieved pairs only',
  perGroup('ret'),
);
export const prefsAvgjgRnonrelRet = prefsMeasure(
  'prefs_avgjg_Rnonrel_ret',
  'prefs_avgjg_Rnonrel over retrieved documents only',
  rNonrel(true),
);
export const prefsSimpImp = prefsMeasure(
  'prefs_simp_imp',
  'prefs_simp over pairs with a retrieved document',
  simple('imp'),
);
export const prefsPairImp = prefsMeasure(
  'prefs_pair_imp',
  'prefs_pair over pairs with a retrieved document',
  pairs('imp'),
);
export const prefsAvgjgImp = prefsMeasure(
  'prefs_avgjg_imp',
  'prefs_avgjg over pairs with a retrieved document',
  perGroup('imp'),
);

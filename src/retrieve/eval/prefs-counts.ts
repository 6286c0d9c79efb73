import { CitegeistError, quoteValue } from '../../core/index.js';
import type { RunEntry } from '../../formats/index.js';
import { compareBytes } from '../../formats/index.js';
import type { PrefEntry } from './rel-info-files.js';
import { compareRunEntriesDocnoAscending, rankRun } from './res-rels.js';

/**
 * Preferences of one topic merged with a run, ported from trec_eval form_prefs_counts.c.
 * Every document named in the preferences gets an internal id: retrieved ones 0…numJudgedRet-1 in
 * rank order, the others numJudgedRet…numJudged-1 in docno order. A judgment group (JG) with one
 * sub-group is a list of equivalence classes (docs of equal rel_level); with several sub-groups it
 * is a preference matrix closed under transitivity.
 */
export interface PrefsJg {
  /** Equivalence classes by decreasing rel_level, each with its internal ids ascending; null for a matrix JG. */
  ecs: { relLevel: number; ids: number[] }[] | null;
  /** numJudged × numJudged, 1 where doc i is preferred to doc j (matrix JGs only). */
  matrix: Uint8Array | null;
  /** rel_level per internal id in a matrix JG (-1 where the JG does not name the doc). */
  relArray: Float64Array | null;
  fulfilledRet: number;
  possibleRet: number;
  fulfilledImp: number;
  possibleImp: number;
  possibleNotOccur: number;
  numNonrel: number;
  numNonrelRet: number;
  numRel: number;
  numRelRet: number;
}

export interface ResultsPrefs {
  jgs: PrefsJg[];
  numJudged: number;
  numJudgedRet: number;
  /** counts[i * numJudged + j]: number of JGs preferring doc i to doc j (16-bit, as in C). */
  counts: Uint16Array;
}

interface Ranked extends PrefEntry {
  id: number;
}

function inconsistent(what: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `Preference judgements are inconsistent: ${what} (trec_eval stops here too).`,
    'Within one judgment group a document needs one rel_level per sub-group and no preference cycles; put conflicting users in different groups.',
  );
}

/** form_prefs_and_ranks: internal ids for every judged doc, prefs sorted by jg, jsg, rel desc, id. */
function rankPrefs(qid: string, prefs: readonly PrefEntry[], run: readonly RunEntry[], maxDocs: number) {
  const judged = new Set(prefs.map((p) => p.docno));
  const idOf = new Map<string, number>();
  for (const e of rankRun(qid, run, maxDocs, compareRunEntriesDocnoAscending)) {
    if (judged.has(e.docno)) idOf.set(e.docno, idOf.size);
  }
  const numJudgedRet = idOf.size;
  const unretrieved = [...judged].filter((d) => !idOf.has(d)).sort(compareBytes);
  for (const d of unretrieved) idOf.set(d, idOf.size);
  const ranked: Ranked[] = prefs.map((p) => ({ ...p, id: idOf.get(p.docno) as number }));
  ranked.sort(
    (a, b) =>
      compareBytes(a.jg, b.jg) ||
      compareBytes(a.jsg, b.jsg) ||
      (a.relLevel > b.relLevel ? -1 : a.relLevel < b.relLevel ? 1 : a.id - b.id),
  );
  return { ranked, numJudged: idOf.size, numJudgedRet };
}

function emptyJg(): PrefsJg {
  return {
    ecs: null,
    matrix: null,
    relArray: null,
    fulfilledRet: 0,
    possibleRet: 0,
    fulfilledImp: 0,
    possibleImp: 0,
    possibleNotOccur: 0,
    numNonrel: 0,
    numNonrelRet: 0,
    numRel: 0,
    numRelRet: 0,
  };
}

/** add_ec_pref_to_jg: counts for an equivalence-class JG. */
function countEcJg(jg: PrefsJg, ecs: { relLevel: number; ids: number[] }[], rp: ResultsPrefs): void {
  const njr = rp.numJudgedRet;
  const n = rp.numJudged;
  for (let e1 = 0; e1 < ecs.length; e1++) {
    const ec1 = ecs[e1] as { relLevel: number; ids: number[] };
    let ret = 0;
    while (ret < ec1.ids.length && (ec1.ids[ret] as number) < njr) ret++;
    if (ec1.relLevel > 0) {
      jg.numRelRet += ret;
      jg.numRel += ec1.ids.length;
    } else {
      jg.numNonrelRet += ret;
      jg.numNonrel += ec1.ids.length;
    }
    for (let e2 = e1 + 1; e2 < ecs.length; e2++) {
      for (const a of ec1.ids) {
        for (const b of (ecs[e2] as { ids: number[] }).ids) {
          rp.counts[a * n + b] = ((rp.counts[a * n + b] as number) + 1) & 0xffff;
          if (a === b) throw inconsistent(`internal doc ${a} has two rel_levels in one sub-group`);
          if (a < b) {
            if (b < njr) jg.fulfilledRet++;
            else if (a < njr) jg.fulfilledImp++;
            else jg.possibleNotOccur++;
          } else if (a < njr) jg.possibleRet++;
          else if (b < njr) jg.possibleImp++;
          else jg.possibleNotOccur++;
        }
      }
    }
  }
  jg.possibleRet += jg.fulfilledRet;
  jg.possibleImp += jg.fulfilledImp;
}

/** form_jg_pa + add_transitives + add_pa_pref_to_jg: a JG with several sub-groups. */
function countMatrixJg(jg: PrefsJg, prefs: readonly Ranked[], rp: ResultsPrefs): void {
  const n = rp.numJudged;
  const njr = rp.numJudgedRet;
  const a = new Uint8Array(n * n);
  const rel = new Float64Array(n).fill(-1);
  for (let i = 0; i < prefs.length; i++) {
    const p = prefs[i] as Ranked;
    const known = rel[p.id] as number;
    if ((known > 0 && p.relLevel === 0) || (known === 0 && p.relLevel > 0)) {
      throw inconsistent(`doc ${quoteValue(p.docno)} has both 0 and non-0 rel_level`);
    }
    rel[p.id] = p.relLevel;
    let j = i + 1;
    while (
      j < prefs.length &&
      (prefs[j] as Ranked).jsg === p.jsg &&
      (prefs[j] as Ranked).relLevel === p.relLevel
    )
      j++;
    for (; j < prefs.length && (prefs[j] as Ranked).jsg === p.jsg; j++)
      a[p.id * n + (prefs[j] as Ranked).id] = 1;
  }
  // Transitive closure (the C squares the matrix until it stops changing; same fixpoint).
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) {
      if (!a[i * n + k]) continue;
      for (let j = 0; j < n; j++) if (a[k * n + j]) a[i * n + j] = 1;
    }
  }
  for (let i = 0; i < n; i++) a[i * n + i] = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && a[i * n + j] && a[j * n + i])
        throw inconsistent(`internal docs ${i} and ${j} are preferred to each other`);
    }
  }
  jg.matrix = a;
  jg.relArray = rel;
  for (let i = 0; i < n; i++) {
    const r = rel[i] as number;
    if (r > 0) {
      jg.numRel++;
      if (i < njr) jg.numRelRet++;
    } else if (r === 0) {
      jg.numNonrel++;
      if (i < njr) jg.numNonrelRet++;
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || !a[i * n + j]) continue;
      rp.counts[i * n + j] = ((rp.counts[i * n + j] as number) + 1) & 0xffff;
      if (i < njr && j < njr) i < j ? jg.fulfilledRet++ : jg.possibleRet++;
      else if (i < njr) jg.fulfilledImp++;
      else if (j < njr) jg.possibleImp++;
      else jg.possibleNotOccur++;
    }
  }
  jg.possibleRet += jg.fulfilledRet;
  jg.possibleImp += jg.fulfilledImp;
}

/** Builds the preference view of one topic (form_prefs_counts). */
export function formPrefsCounts(
  qid: string,
  prefs: readonly PrefEntry[],
  run: readonly RunEntry[],
  maxDocs: number,
): ResultsPrefs {
  const { ranked, numJudged, numJudgedRet } = rankPrefs(qid, prefs, run, maxDocs);
  const rp: ResultsPrefs = {
    jgs: [],
    numJudged,
    numJudgedRet,
    counts: new Uint16Array(numJudged * numJudged),
  };
  let start = 0;
  while (start < ranked.length) {
    const jgId = (ranked[start] as Ranked).jg;
    let end = start;
    let subGroups = 0;
    let jsg: string | null = null;
    while (end < ranked.length && (ranked[end] as Ranked).jg === jgId) {
      if ((ranked[end] as Ranked).jsg !== jsg) {
        subGroups++;
        jsg = (ranked[end] as Ranked).jsg;
      }
      end++;
    }
    const group = ranked.slice(start, end);
    const jg = emptyJg();
    if (subGroups > 1) countMatrixJg(jg, group, rp);
    else {
      const ecs: { relLevel: number; ids: number[] }[] = [];
      for (const p of group) {
        const last = ecs[ecs.length - 1];
        if (last && last.relLevel === p.relLevel) last.ids.push(p.id);
        else ecs.push({ relLevel: p.relLevel, ids: [p.id] });
      }
      jg.ecs = ecs;
      countEcJg(jg, ecs, rp);
    }
    rp.jgs.push(jg);
    start = end;
  }
  return rp;
}

import { CitegeistError, quoteValue } from '../../core/index.js';
import type { QrelsEntry, RunEntry } from '../../formats/index.js';
import { compareBytes } from '../../formats/index.js';

/** A retrieved document that is not in the qrels at all. */
export const REL_NONPOOL = -1;
/** A retrieved document that is in the qrels with a negative grade (pooled, not judged). */
export const REL_UNJUDGED = -2;

/** How a run is cut and filtered before merging (trec_eval `-M`, `-J`, `-l`). */
export interface MergeSettings {
  relevanceLevel: number;
  maxDocs: number;
  judgedOnly: boolean;
}

/**
 * One topic's run merged with its qrels, as trec_eval's `RES_RELS` (trec_format.h): the relevance
 * of each retrieved document in rank order plus the counts every measure needs.
 */
export interface ResRels {
  /** Relevance per rank (0-based): the grade, REL_NONPOOL or REL_UNJUDGED. */
  rels: Int32Array;
  numRet: number;
  numRel: number;
  numRelRet: number;
  numNonpool: number;
  numUnjudged: number;
  /** Number of judged documents per grade 0…max grade (negative grades are not counted). */
  relLevels: number[];
  /** One more than the highest grade with a judged document. */
  numRelLevels: number;
}

/** trec_eval's ranking: score descending, ties by document id descending (byte order). */
export function compareRunEntries(a: RunEntry, b: RunEntry): number {
  if (a.sim > b.sim) return -1;
  if (a.sim < b.sim) return 1;
  return compareBytes(b.docno, a.docno);
}

/**
 * Preference evaluation breaks score ties the other way, by document id ascending
 * (form_prefs_counts.c, comp_sim_docno), unlike form_res_rels.c.
 */
export function compareRunEntriesDocnoAscending(a: RunEntry, b: RunEntry): number {
  if (a.sim > b.sim) return -1;
  if (a.sim < b.sim) return 1;
  return compareBytes(a.docno, b.docno);
}

/** The run of one topic in rank order, cut at `maxDocs`; a document listed twice is an error. */
export function rankRun(
  qid: string,
  run: readonly RunEntry[],
  maxDocs: number,
  order: (a: RunEntry, b: RunEntry) => number = compareRunEntries,
): RunEntry[] {
  const ranked = [...run].sort(order);
  if (ranked.length > maxDocs) ranked.length = Math.max(0, maxDocs);
  const seen = new Set<string>();
  for (const e of ranked) {
    if (seen.has(e.docno)) throw duplicateDoc('run', qid, e.docno);
    seen.add(e.docno);
  }
  return ranked;
}

/**
 * Merges one judgement set with a ranked run (trec_eval form_res_rels.c, te_form_res_rels): grades
 * per rank and counts. With `judgedOnly` (-J), unjudged and unpooled documents are dropped from
 * the ranking first, and the nonpool/unjudged counts stay 0 as in form_res_rels.c.
 */
export function mergeJudgements(
  qid: string,
  qrels: readonly QrelsEntry[],
  ranked: readonly RunEntry[],
  settings: MergeSettings,
): ResRels {
  const judged = new Map<string, number>();
  let maxRel = qrels.length ? (qrels[0] as QrelsEntry).rel : 0;
  for (const q of qrels) {
    if (judged.has(q.docno)) throw duplicateDoc('qrels', qid, q.docno);
    judged.set(q.docno, q.rel);
    if (q.rel > maxRel) maxRel = q.rel;
  }
  const relLevels: number[] = new Array(Math.max(0, maxRel + 1)).fill(0);
  for (const q of qrels) if (q.rel >= 0) relLevels[q.rel] = (relLevels[q.rel] ?? 0) + 1;

  const all = new Int32Array(ranked.length);
  for (let i = 0; i < ranked.length; i++) {
    const rel = judged.get((ranked[i] as RunEntry).docno);
    all[i] = rel === undefined ? REL_NONPOOL : rel < 0 ? REL_UNJUDGED : rel;
  }
  let rels = all;
  let numNonpool = 0;
  let numUnjudged = 0;
  if (settings.judgedOnly) rels = all.filter((r) => r >= 0);
  else for (const r of all) r === REL_NONPOOL ? numNonpool++ : r === REL_UNJUDGED && numUnjudged++;
  let numRelRet = 0;
  for (const r of rels) if (r >= 0 && r >= settings.relevanceLevel) numRelRet++;

  let numRel = 0;
  let numRelLevels = 0;
  relLevels.forEach((count, level) => {
    if (count > 0) {
      numRelLevels = level + 1;
      if (level >= settings.relevanceLevel) numRel += count;
    }
  });
  return { rels, numRet: rels.length, numRel, numRelRet, numNonpool, numUnjudged, relLevels, numRelLevels };
}

/** Ranks a run and merges it with one topic's qrels (the common path). */
export function formResRels(
  qid: string,
  qrels: readonly QrelsEntry[],
  run: readonly RunEntry[],
  relevanceLevel: number,
  maxDocs = Number.POSITIVE_INFINITY,
  judgedOnly = false,
): ResRels {
  return mergeJudgements(qid, qrels, rankRun(qid, run, maxDocs), { relevanceLevel, maxDocs, judgedOnly });
}

export function duplicateDoc(where: 'run' | 'qrels', qid: string, docno: string): CitegeistError {
  return new CitegeistError(
    'TREC_DUPLICATE_DOC',
    `The ${where} lists document ${quoteValue(docno)} twice for topic ${quoteValue(qid)} (trec_eval stops with "duplicate docs" here too).`,
    where === 'run'
      ? 'Keep one line per (topic, document) in the run, e.g. the best score (see rollUpRun for passage runs).'
      : 'Keep one judgement per (topic, document) in the qrels.',
  );
}

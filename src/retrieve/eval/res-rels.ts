import { CitegeistError, quoteValue } from '../../core/index.js';
import { compareBytes } from './byte-order.js';
import type { QrelsEntry, RunEntry } from './trec-files.js';

/** A retrieved document that is not in the qrels at all. */
export const REL_NONPOOL = -1;
/** A retrieved document that is in the qrels with a negative grade (pooled, not judged). */
export const REL_UNJUDGED = -2;

/**
 * One topic's run merged with its qrels, as trec_eval's `RES_RELS`: the relevance of each retrieved
 * document in rank order plus the counts every measure needs.
 */
export interface ResRels {
  /** Relevance per rank (0-based): the grade, REL_NONPOOL or REL_UNJUDGED. */
  rels: Int32Array;
  numRet: number;
  numRel: number;
  numRelRet: number;
  /** Number of judged documents per grade 0…numRelLevels-1 (negative grades are not counted). */
  relLevels: number[];
  numRelLevels: number;
}

/** trec_eval's ranking: score descending, ties by document id descending (byte order). */
export function compareRunEntries(a: RunEntry, b: RunEntry): number {
  if (a.sim > b.sim) return -1;
  if (a.sim < b.sim) return 1;
  return compareBytes(b.docno, a.docno);
}

/**
 * Builds the merged view for one topic (trec_eval `te_form_res_rels`). A document id that occurs
 * twice in the (truncated) ranking or twice in the topic's qrels is an error, as in trec_eval.
 */
export function formResRels(
  qid: string,
  qrels: readonly QrelsEntry[],
  run: readonly RunEntry[],
  relevanceLevel: number,
  maxDocs = Number.POSITIVE_INFINITY,
): ResRels {
  const ranked = [...run].sort(compareRunEntries);
  if (ranked.length > maxDocs) ranked.length = maxDocs;
  const judged = new Map<string, number>();
  let maxRel = Number.NEGATIVE_INFINITY;
  for (const q of qrels) {
    if (judged.has(q.docno)) throw duplicate('qrels', qid, q.docno);
    judged.set(q.docno, q.rel);
    if (q.rel > maxRel) maxRel = q.rel;
  }
  const relLevels: number[] = new Array(Math.max(0, maxRel + 1)).fill(0);
  for (const q of qrels) if (q.rel >= 0) relLevels[q.rel] = (relLevels[q.rel] ?? 0) + 1;

  const rels = new Int32Array(ranked.length);
  const seen = new Set<string>();
  let numRelRet = 0;
  for (let i = 0; i < ranked.length; i++) {
    const docno = (ranked[i] as RunEntry).docno;
    if (seen.has(docno)) throw duplicate('run', qid, docno);
    seen.add(docno);
    const rel = judged.get(docno);
    if (rel === undefined) rels[i] = REL_NONPOOL;
    else if (rel < 0) rels[i] = REL_UNJUDGED;
    else {
      rels[i] = rel;
      if (rel >= relevanceLevel) numRelRet++;
    }
  }
  let numRel = 0;
  let numRelLevels = 0;
  relLevels.forEach((count, level) => {
    if (count > 0) {
      numRelLevels = level + 1;
      if (level >= relevanceLevel) numRel += count;
    }
  });
  return { rels, numRet: ranked.length, numRel, numRelRet, relLevels, numRelLevels };
}

function duplicate(where: 'run' | 'qrels', qid: string, docno: string): CitegeistError {
  return new CitegeistError(
    'TREC_DUPLICATE_DOC',
    `The ${where} lists document ${quoteValue(docno)} twice for topic ${quoteValue(qid)} (trec_eval stops with "duplicate docs" here too).`,
    where === 'run'
      ? 'Keep one line per (topic, document) in the run, e.g. the best score (see rollUpRun for passage runs).'
      : 'Keep one judgement per (topic, document) in the qrels.',
  );
}

import type { Bm25Hit, Bm25Index } from './bm25.js';

/** RM3 pseudo-relevance feedback settings (Anserini's defaults: 10 documents, 10 terms, λ = 0.5). */
export interface Rm3Options {
  /** Top-ranked documents taken as relevant (default 10). */
  fbDocs: number;
  /** Expansion terms kept (default 10). */
  fbTerms: number;
  /** Weight of the original query in the mix; 1 − λ goes to the expansion terms (default 0.5). */
  originalWeight: number;
}

export const RM3_DEFAULTS: Rm3Options = { fbDocs: 10, fbTerms: 10, originalWeight: 0.5 };

/**
 * RM3 query expansion (Lavrenko & Croft's relevance model 1, interpolated with the query, as in
 * Anserini's `Rm3Reranker`): a first BM25 pass ranks the documents; over the top `fbDocs` of them
 * P(t|R) = Σ_d P(t|d)·P(Q|d) with P(t|d) = tf/|d| and P(Q|d) the document's BM25 score
 * normalised to sum 1; the `fbTerms` most likely terms (numbers and one-letter terms left out)
 * are normalised to sum 1 and mixed with the query's own terms (counts normalised to sum 1) as
 * λ·query + (1 − λ)·feedback. Returns term number → weight for `Bm25Index.searchTerms`.
 */
export function rm3Expand(
  index: Bm25Index,
  query: string,
  options: Partial<Rm3Options> = {},
  firstPass?: readonly Bm25Hit[],
): Map<number, number> {
  const { fbDocs, fbTerms, originalWeight } = { ...RM3_DEFAULTS, ...options };
  const original = index.queryTerms(query);
  const top = (firstPass ?? index.searchTerms(original, fbDocs)).slice(0, fbDocs);
  const total = top.reduce((s, h) => s + h.score, 0);
  if (original.size === 0 || top.length === 0 || total <= 0) return original;
  const relevance = new Map<number, number>();
  for (const hit of top) {
    const { terms, tfs, length } = index.documentTerms(hit.index);
    if (length === 0) continue;
    const weight = hit.score / total;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as number;
      relevance.set(t, (relevance.get(t) ?? 0) + ((tfs[i] as number) / length) * weight);
    }
  }
  const feedback = [...relevance]
    .filter(([t]) => isExpansionTerm(index.term(t)))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, fbTerms);
  const feedbackMass = feedback.reduce((s, [, w]) => s + w, 0);
  let queryMass = 0;
  for (const n of original.values()) queryMass += n;
  const mixed = new Map<number, number>();
  for (const [t, n] of original) mixed.set(t, (originalWeight * n) / queryMass);
  if (feedbackMass > 0) {
    for (const [t, w] of feedback)
      mixed.set(t, (mixed.get(t) ?? 0) + ((1 - originalWeight) * w) / feedbackMass);
  }
  return mixed;
}

function isExpansionTerm(term: string): boolean {
  return term.length > 1 && !/^\p{N}+$/u.test(term);
}

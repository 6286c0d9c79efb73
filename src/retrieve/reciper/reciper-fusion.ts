/**
 * RECIPER's fusion of the paragraph and recipe views (METHODS §4.3–4.5), as pure functions over
 * scored candidates so every score can be checked by hand.
 */

export type Stream = 'paragraph' | 'recipe';

export interface Candidate {
  /** Passage id (`<docId>#<n>`) or recipe id (`<docId>#recipe`). */
  id: string;
  docId: string;
  /** Cosine similarity to the query. */
  score: number;
  title: string;
  text: string;
  stream: Stream;
}

export interface RankedDocument {
  docId: string;
  score: number;
  /** The candidate that gave the document its score. */
  best: Candidate;
}

export type ReciperMethod = 'reciper' | 'reciper-public' | 'paragraph' | 'recipe' | 'naive' | 'rrf';

export const RECIPER_LAMBDA = 0.1;

/** Tokens as RECIPER counts them: lower-case `\w+` runs (Unicode letters, digits, underscore). */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
}

/** o = |Q ∩ T| / |Q| (0 for an empty query). */
export function overlap(query: Set<string>, text: string): number {
  if (query.size === 0) return 0;
  const t = wordSet(text);
  let n = 0;
  for (const q of query) if (t.has(q)) n++;
  return n / query.size;
}

/** Stream-aware dedup: within one stream keep only each document's best candidate (best first). */
export function bestPerDocument(candidates: readonly Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    const prev = best.get(c.docId);
    if (!prev || c.score > prev.score) best.set(c.docId, c);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function rankDocuments(scored: { c: Candidate; s: number }[]): RankedDocument[] {
  const best = new Map<string, RankedDocument>();
  for (const { c, s } of scored) {
    const prev = best.get(c.docId);
    if (!prev || s > prev.score) best.set(c.docId, { docId: c.docId, score: s, best: c });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : 1));
}

/**
 * RECIPER: dedup within each stream, pool both, rerank each candidate by ŝ = s + λ·o with o the
 * query-token overlap of its title + text, and rank documents by their best candidate.
 */
export function reciperRank(
  query: string,
  paragraphs: readonly Candidate[],
  recipes: readonly Candidate[],
  lambda = RECIPER_LAMBDA,
): RankedDocument[] {
  const q = wordSet(query);
  const pooled = [...bestPerDocument(paragraphs), ...bestPerDocument(recipes)];
  return rankDocuments(pooled.map((c) => ({ c, s: c.score + lambda * overlap(q, `${c.title} ${c.text}`) })));
}

export interface PublicVariantOptions {
  paragraphWeight?: number;
  recipeWeight?: number;
  k?: number;
  overlapWeight?: number;
  titleOverlapWeight?: number;
}

/**
 * The authors' public code: per document, weighted RRF of its rank in each deduped stream
 * (0.65 paragraphs, 0.35 recipes, k = 60) plus 0.01·overlap (query tokens in the best candidate's
 * text, max over streams) plus 0.02·title_overlap (query tokens in the title).
 */
export function reciperPublicRank(
  query: string,
  paragraphs: readonly Candidate[],
  recipes: readonly Candidate[],
  options: PublicVariantOptions = {},
): RankedDocument[] {
  const {
    paragraphWeight = 0.65,
    recipeWeight = 0.35,
    k = 60,
    overlapWeight = 0.01,
    titleOverlapWeight = 0.02,
  } = options;
  const q = wordSet(query);
  const docs = new Map<string, { rrf: number; text: number; title: number; best: Candidate }>();
  const add = (list: Candidate[], weight: number) => {
    list.forEach((c, rank) => {
      const d = docs.get(c.docId) ?? { rrf: 0, text: 0, title: overlap(q, c.title), best: c };
      d.rrf += weight / (k + rank + 1);
      d.text = Math.max(d.text, overlap(q, c.text));
      if (c.score > d.best.score) d.best = c;
      docs.set(c.docId, d);
    });
  };
  add(bestPerDocument(paragraphs), paragraphWeight);
  add(bestPerDocument(recipes), recipeWeight);
  return [...docs.entries()]
    .map(([docId, d]) => ({
      docId,
      best: d.best,
      score: d.rrf + overlapWeight * d.text + titleOverlapWeight * d.title,
    }))
    .sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : 1));
}

/** The baselines of METHODS §4.5 (BM25 is a separate retriever). */
export function rankByMethod(
  method: ReciperMethod,
  query: string,
  paragraphs: readonly Candidate[],
  recipes: readonly Candidate[],
): RankedDocument[] {
  const asDocs = (list: Candidate[]) => list.map((c) => ({ docId: c.docId, score: c.score, best: c }));
  switch (method) {
    case 'reciper':
      return reciperRank(query, paragraphs, recipes);
    case 'reciper-public':
      return reciperPublicRank(query, paragraphs, recipes);
    case 'paragraph':
      return asDocs(bestPerDocument(paragraphs));
    case 'recipe':
      return asDocs(bestPerDocument(recipes));
    case 'naive':
      return rankDocuments([...paragraphs, ...recipes].map((c) => ({ c, s: c.score })));
    case 'rrf':
      return reciperPublicRank(query, paragraphs, recipes, {
        paragraphWeight: 1,
        recipeWeight: 1,
        overlapWeight: 0,
        titleOverlapWeight: 0,
      });
  }
}

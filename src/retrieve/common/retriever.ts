import { docIdOfPassage } from '../eval/index.js';

/** One retrieved item: a passage (`<docId>#<n>`) or a document, with its retriever score. */
export interface ScoredPassage {
  id: string;
  docId: string;
  score: number;
}

/** Anything that ranks passages for a query (BM25, dense, hybrid, RECIPER). */
export interface Retriever {
  /** "bm25", "dense:<embedder>", "hybrid-rrf", "reciper", …: recorded as the run tag. */
  readonly id: string;
  retrieve(query: string, k: number): Promise<ScoredPassage[]>;
}

export function scoredPassage(id: string, score: number): ScoredPassage {
  return { id, docId: docIdOfPassage(id), score };
}

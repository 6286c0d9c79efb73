/**
 * The BM25 formula, in one place: the in-memory index (`Bm25Index`), the segment merge that records
 * each term's largest impact and the disk index (`Bm25DiskIndex`) all score through these, so their
 * scores are bit-identical. score(d, q) = Σ over query terms of q-count · impact, with
 * impact = idf · tf·(k1+1) / (tf + k1·(1−b+b·dl/avgdl)), rounded to float32 (as stored).
 */

/**
 * The BM25 parameters an index is built and searched with unless given (Anserini's defaults for
 * passage collections, as Pyserini's `LuceneSearcher` sets them).
 */
export const BM25_DEFAULTS: Readonly<{ k1: number; b: number }> = { k1: 0.9, b: 0.4 };

/** idf = ln(1 + (N − df + 0.5)/(df + 0.5)). */
export function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The length normalisation of a document of `dl` tokens: k1·(1−b+b·dl/avgdl). Once per document. */
export function lengthNorm(dl: number, avgdl: number, k1: number, b: number): number {
  return k1 * (1 - b + (b * dl) / avgdl);
}

/** One posting's impact from its document's `lengthNorm`, rounded to float32. */
export function impactWithNorm(idf: number, tf: number, norm: number, k1: number): number {
  return Math.fround((idf * tf * (k1 + 1)) / (tf + norm));
}

/** One posting's impact from the document length (bounds and merge; scoring uses `impactWithNorm`). */
export function impactOf(idf: number, tf: number, dl: number, avgdl: number, k1: number, b: number): number {
  return impactWithNorm(idf, tf, lengthNorm(dl, avgdl, k1, b), k1);
}

/** The average document length BM25 normalises by (1 for an empty index). */
export function averageLength(totalLength: number, documents: number): number {
  return documents ? totalLength / documents || 1 : 1;
}

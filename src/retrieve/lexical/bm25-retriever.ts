import { type Retriever, type ScoredPassage, scoredPassage } from '../common/index.js';
import type { Bm25Index } from './bm25.js';
import { type Rm3Options, rm3Expand } from './rm3.js';

/** BM25, optionally with RM3 pseudo-relevance feedback (`bm25+rm3`). */
export class Bm25Retriever implements Retriever {
  readonly id: string;
  constructor(
    private readonly index: Bm25Index,
    private readonly rm3: Rm3Options | null = null,
  ) {
    this.id = rm3 ? 'bm25+rm3' : 'bm25';
  }
  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const hits = this.rm3
      ? this.index.searchTerms(rm3Expand(this.index, query, this.rm3), k)
      : this.index.search(query, k);
    return hits.map((h) => scoredPassage(h.id, h.score));
  }
}

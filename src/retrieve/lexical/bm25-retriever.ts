import { CitegeistError } from '../../core/index.js';
import { type Retriever, type ScoredPassage, scoredPassage } from '../common/index.js';
import { Bm25Index } from './bm25.js';
import type { Bm25DiskIndex } from './bm25-disk.js';
import { type Rm3Options, rm3Expand } from './rm3.js';

/** BM25, optionally with RM3 pseudo-relevance feedback (`bm25+rm3`). */
export class Bm25Retriever implements Retriever {
  readonly id: string;
  constructor(
    private readonly index: Bm25Index | Bm25DiskIndex,
    private readonly rm3: Rm3Options | null = null,
  ) {
    this.id = rm3 ? 'bm25+rm3' : 'bm25';
    if (rm3 && !(index instanceof Bm25Index)) {
      // RM3 reads the feedback documents' term vectors, which the on-disk index does not store.
      throw new CitegeistError(
        'BAD_OPTION',
        'RM3 feedback needs an in-memory BM25 index (`Bm25Index.build`); an index folder does not keep term vectors.',
        'Use BM25 without RM3 on an index folder, or build a Bm25Index over the passages.',
      );
    }
  }
  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const hits =
      this.rm3 && this.index instanceof Bm25Index
        ? this.index.searchTerms(rm3Expand(this.index, query, this.rm3), k)
        : this.index.search(query, k);
    return hits.map((h) => scoredPassage(h.id, h.score));
  }
}

import { CitegeistError } from '../../core/index.js';
import type { Embedder } from '../../llm/index.js';
import { DenseIndex, type VectorIndex } from '../dense/index.js';
import { type Bm25DiskIndex, Bm25Index, type Rm3Options, rm3Expand } from '../lexical/index.js';
import { type Retriever, type ScoredPassage, scoredPassage } from './retriever.js';

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

export class DenseRetriever implements Retriever {
  readonly id: string;
  constructor(
    private readonly index: VectorIndex,
    private readonly embedder: Embedder,
  ) {
    this.id = `dense:${embedder.id}`;
  }
  /** Embeds the passages (role `passage`) into an exact dense index and retrieves over it. */
  static async over(
    embedder: Embedder,
    passages: readonly { id: string; text: string }[],
  ): Promise<DenseRetriever> {
    const vectors = await embedder.embed(
      passages.map((p) => p.text),
      'passage',
    );
    const ids = passages.map((p) => p.id);
    return new DenseRetriever(
      DenseIndex.fromVectors(embedder.id, ids, vectors, 'exact', embedder.dimensions),
      embedder,
    );
  }

  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const [q] = await this.embedder.embed([query], 'query');
    if (!q) return [];
    return (this.index.search([q], k)[0] ?? []).map((h) => scoredPassage(h.id, h.score));
  }
}

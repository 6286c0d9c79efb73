import type { Embedder } from '../../llm/index.js';
import { type Retriever, type ScoredPassage, scoredPassage } from '../common/index.js';
import { DenseIndex } from './dense-index.js';
import type { VectorIndex } from './vector-index.js';

/** Exact or approximate nearest-neighbour search over embedded passages. */
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

import type { Embedder } from '../../llm/index.js';
import type { DenseIndex } from '../dense/index.js';
import type { Bm25Index } from '../lexical/index.js';
import { type Retriever, type ScoredPassage, scoredPassage } from './retriever.js';

export class Bm25Retriever implements Retriever {
  readonly id = 'bm25';
  constructor(private readonly index: Bm25Index) {}
  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    return this.index.search(query, k).map((h) => scoredPassage(h.id, h.score));
  }
}

export class DenseRetriever implements Retriever {
  readonly id: string;
  constructor(
    private readonly index: DenseIndex,
    private readonly embedder: Embedder,
  ) {
    this.id = `dense:${embedder.id}`;
  }
  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const [q] = await this.embedder.embed([query], 'query');
    if (!q) return [];
    return (this.index.search([q], k)[0] ?? []).map((h) => scoredPassage(h.id, h.score));
  }
}

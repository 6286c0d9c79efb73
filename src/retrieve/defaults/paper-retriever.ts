import type { Embedder } from '../../llm/index.js';
import type { Retriever, ScoredPassage } from '../common/index.js';
import { DenseRetriever } from '../dense/index.js';
import { Bm25Index } from '../lexical/index.js';
import { createRetriever, type RetrievalConfig } from './retrieval-defaults.js';

/**
 * Retrieval within one paper: BM25 with the paper's own statistics (built on first use), fused
 * with the embedder's cosine over the paper's passages when `config` says so (the passages are
 * embedded on first use). This is what `answer --context retrieval` and the extractive answerer
 * rank with, and what scripts/measure-retrieval.ts measures for the within-paper situation.
 */
export class PaperRetriever implements Retriever {
  readonly id: string;
  private retriever: Promise<Retriever> | null = null;

  constructor(
    private readonly passages: readonly { id: string; text: string }[],
    private readonly config: RetrievalConfig,
    private readonly embedder: Embedder | null,
  ) {
    this.id = config.dense && embedder ? `paper:hybrid(bm25+dense:${embedder.id})` : 'paper:bm25';
  }

  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    if (this.passages.length === 0) return [];
    this.retriever ??= this.build();
    return (await this.retriever).retrieve(query, k);
  }

  private async build(): Promise<Retriever> {
    const bm25 = Bm25Index.build(this.passages);
    if (!this.config.dense || !this.embedder) return createRetriever(this.config, { bm25 });
    return createRetriever(this.config, {
      bm25,
      dense: await DenseRetriever.over(this.embedder, this.passages),
    });
  }
}

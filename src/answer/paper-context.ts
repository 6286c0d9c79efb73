import type { Document } from '../core/index.js';
import type { Embedder } from '../llm/index.js';
import {
  BM25_ALONE,
  chunkDocument,
  PaperRetriever,
  type Passage,
  type RetrievalConfig,
} from '../retrieve/index.js';

/**
 * How passages are ranked within a paper: a retrieval configuration (`defaultRetrieval` for the
 * within-paper situation) and the embedder its dense side uses (the index's, e.g. the LSA model
 * fitted on the corpus), or BM25 alone.
 */
export interface PaperRetrieval {
  config: RetrievalConfig;
  embedder: Embedder | null;
}

/**
 * A paper ready for answering: its text, its passages, and a retriever over them built on first
 * use (so full-context answering never pays for it).
 */
export class PaperContext {
  readonly id: string;
  readonly text: string;
  readonly passages: Passage[];
  private readonly retriever: PaperRetriever;
  private readonly byId: Map<string, Passage>;

  constructor(
    readonly doc: Document,
    retrieval: PaperRetrieval = { config: BM25_ALONE, embedder: null },
  ) {
    this.id = doc.id;
    this.text = doc.text;
    // Markdown headings are structure, not content: they are not retrievable passages.
    this.passages = chunkDocument(doc).filter((p) => !/^#{1,6}\s/.test(p.text));
    this.byId = new Map(this.passages.map((p) => [p.id, p]));
    // Ranked on the text with footnote and citation markers blanked (`indexText`), as the index is.
    this.retriever = new PaperRetriever(
      this.passages.map((p) => ({ id: p.id, text: p.indexText ?? p.text })),
      retrieval.config,
      retrieval.embedder,
    );
  }

  /** The top-k passages for a query, best first (`PaperRetrieval`; default BM25 with stemming and stop words). */
  async retrieve(query: string, k: number): Promise<{ passage: Passage; score: number }[]> {
    const hits = await this.retriever.retrieve(query, k);
    return hits.flatMap((h) => {
      const passage = this.byId.get(h.id);
      return passage ? [{ passage, score: h.score }] : [];
    });
  }

  /** The blank-line paragraph of the text that contains `offset` (QASPER evidence is paragraphs). */
  paragraphAt(offset: number): string {
    const before = this.text.lastIndexOf('\n\n', offset);
    const after = this.text.indexOf('\n\n', offset);
    return this.text.slice(before < 0 ? 0 : before + 2, after < 0 ? this.text.length : after).trim();
  }
}

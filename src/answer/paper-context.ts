import type { Document } from '../core/index.js';
import { Bm25Index, chunkDocument, type Passage } from '../retrieve/index.js';

/**
 * A paper ready for answering: its text, its passages, and a BM25 index over them built on first
 * use (so full-context answering never pays for it).
 */
export class PaperContext {
  readonly id: string;
  readonly text: string;
  readonly passages: Passage[];
  private index: Bm25Index | null = null;

  constructor(readonly doc: Document) {
    this.id = doc.id;
    this.text = doc.text;
    // Markdown headings are structure, not content: they are not retrievable passages.
    this.passages = chunkDocument(doc).filter((p) => !/^#{1,6}\s/.test(p.text));
  }

  /** The top-k passages for a query, best first (BM25 with stemming and stop words). */
  retrieve(query: string, k: number): { passage: Passage; score: number }[] {
    if (this.passages.length === 0) return [];
    this.index ??= Bm25Index.build(this.passages.map((p) => ({ id: p.id, text: p.indexText ?? p.text })));
    return this.index
      .search(query, k)
      .map((hit) => ({ passage: this.passages[hit.index]!, score: hit.score }));
  }

  /** The blank-line paragraph of the text that contains `offset` (QASPER evidence is paragraphs). */
  paragraphAt(offset: number): string {
    const before = this.text.lastIndexOf('\n\n', offset);
    const after = this.text.indexOf('\n\n', offset);
    return this.text.slice(before < 0 ? 0 : before + 2, after < 0 ? this.text.length : after).trim();
  }
}

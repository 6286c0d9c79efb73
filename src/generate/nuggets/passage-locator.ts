/**
 * For nuggets generated from papers: the reference of each QA pair is the passage of its paper
 * that best matches the answer and question (BM25 over that paper's passages), so the bank cites
 * citegeist passage ids (`<paperId>#<n>`) that `reports judge --docs <corpus>` resolves. The
 * passages must be the ones the judge reads: the corpus index's, else the paper chunked as
 * `citegeist index` chunks it.
 */
import { Bm25Index, type Passage } from '../../retrieve/index.js';
import type { NuggetDocument, QaPair } from './grounded-qa.js';

export function createPassageLocator(
  passagesOf: (paperId: string) => readonly Passage[],
): (doc: NuggetDocument, pair: QaPair) => string | undefined {
  const indexes = new Map<string, Bm25Index | null>();
  return (doc, pair) => {
    if (!doc.paperId) return undefined;
    if (!indexes.has(doc.paperId)) {
      const passages = passagesOf(doc.paperId);
      indexes.set(
        doc.paperId,
        passages.length
          ? Bm25Index.build(passages.map((p) => ({ id: p.id, text: p.indexText ?? p.text })))
          : null,
      );
    }
    const index = indexes.get(doc.paperId);
    // The answer is what the passage must contain; the question adds context words.
    const [hit] = index?.search(`${pair.answer} ${pair.answer} ${pair.question}`, 1) ?? [];
    return hit?.id ?? doc.paperId;
  };
}

import type { Document } from '../../core/index.js';
import { type Embedder, LsaEmbedder, needsFitting } from '../../llm/index.js';
import { DenseIndex } from '../dense/index.js';
import { Bm25Index } from '../lexical/index.js';
import { chunkDocument, type Passage } from '../passages/index.js';
import type { SavedIndex } from './index-dir.js';

export interface IndexedDocument {
  document: Document;
  /** Its content digest (`CorpusStore.digests`), recorded so a changed paper is detected later. */
  digest: string;
}

export interface BuildIndexOptions {
  /** Passage token budget (`chunkDocument`). */
  maxTokens: number;
  /** Keep bibliography entries as passages (left out by default: a top hit should not be a reference). */
  includeReferences?: boolean;
  /** The dense side, or null for BM25 only; a corpus-fitted embedder (LSA) is fitted here. */
  embedder: { spec: string; embedder: Embedder } | null;
  /** citegeist's version, recorded in the manifest. */
  version: string;
  /** Texts per embedding call (default 256). */
  batchSize?: number;
  /** Called after each embedding batch. */
  onBatch?: (done: number, total: number) => void;
}

/**
 * Chunks documents into passages and builds the BM25 index and (with an embedder) the dense
 * vectors: everything `saveIndex` writes, with a manifest recording the documents' digests, the
 * passage budget and the embedder, which `index` compares to decide whether to rebuild and
 * `search`/`retrieve` check before answering (`assertIndexFresh`).
 */
export async function buildIndex(
  documents: readonly IndexedDocument[],
  options: BuildIndexOptions,
): Promise<Omit<SavedIndex, 'dense'> & { dense: DenseIndex | null }> {
  const includeReferences = options.includeReferences ?? false;
  const passages: Passage[] = documents.flatMap((d) =>
    chunkDocument(d.document, { maxTokens: options.maxTokens, includeReferences }),
  );
  // Indexed on the text with footnote and citation markers blanked (`indexText`); stored as shown.
  const indexed = passages.map((p) => ({ id: p.id, text: p.indexText ?? p.text }));
  const bm25 = Bm25Index.build(indexed);
  const embedder = options.embedder?.embedder ?? null;
  let dense: DenseIndex | null = null;
  if (embedder) {
    let fitted: Float32Array[] | null = null;
    if (needsFitting(embedder)) {
      embedder.fit(indexed.map((p) => p.text));
      fitted = embedder.takeFittedEmbeddings?.() ?? null;
    }
    dense = fitted
      ? DenseIndex.fromVectors(
          embedder.id,
          passages.map((p) => p.id),
          fitted,
        )
      : await embedAll(embedder, indexed, options);
  }
  return {
    manifest: {
      format: 2,
      createdAt: new Date().toISOString(),
      builtBy: options.version,
      documents: documents.map((d) => d.document.id),
      digests: documents.map((d) => d.digest),
      passages: passages.length,
      maxTokens: options.maxTokens,
      includeReferences,
      embedderSpec: options.embedder?.spec ?? null,
      embedderId: embedder?.id ?? null,
      dimensions: embedder?.dimensions ?? null,
    },
    passages: passages.map(({ indexText: _, ...p }) => p),
    bm25,
    dense,
    embedderModel: embedder instanceof LsaEmbedder ? embedder.toJSON() : null,
  };
}

async function embedAll(
  embedder: Embedder,
  passages: readonly { id: string; text: string }[],
  options: BuildIndexOptions,
): Promise<DenseIndex> {
  const batch = options.batchSize ?? 256;
  const total = Math.ceil(passages.length / batch);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < passages.length; i += batch) {
    vectors.push(
      ...(await embedder.embed(
        passages.slice(i, i + batch).map((p) => p.text),
        'passage',
      )),
    );
    options.onBatch?.(i / batch + 1, total);
  }
  return DenseIndex.fromVectors(
    embedder.id,
    passages.map((p) => p.id),
    vectors,
  );
}

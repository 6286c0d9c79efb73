import type { Document } from '../../core/index.js';
import { createEmbedder } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import { type BuildIndexOptions, type IndexedDocument, writeIndex } from './build-index.js';
import { type IndexManifest, indexExists, readManifest } from './index-dir.js';
import { describeStaleness, indexStaleness } from './staleness.js';

/** Whitespace tokens per passage when none is given (`chunkDocument`'s default too). */
export const DEFAULT_PASSAGE_TOKENS = 256;

/** What an index is built from and with: the settings compared with an existing index's manifest. */
export interface IndexSettings {
  /** The embedder spec of the dense side, or null for BM25 only. */
  embedderSpec: string | null;
  maxTokens: number;
  includeReferences: boolean;
}

/** The corpus as indexing reads it (a `CorpusStore` is one). */
export interface IndexableCorpus {
  digests(): Map<string, string>;
  get(id: string): Document | undefined | null;
}

/** An index folder against the corpus and settings: absent, up to date, or why it must be rebuilt. */
export type IndexCheck =
  | { state: 'missing' }
  | { state: 'fresh'; manifest: IndexManifest }
  | { state: 'stale'; manifest: IndexManifest; reasons: string[] };

/**
 * Compares the index in `dir` with the corpus's content digests and the settings it would be
 * built with: a paper added, removed or changed, another embedder, passage budget or reference
 * setting each make it stale, with a reason for messages.
 */
export function checkIndex(
  dir: string,
  digests: ReadonlyMap<string, string>,
  settings: IndexSettings,
): IndexCheck {
  if (!indexExists(dir)) return { state: 'missing' };
  const m = readManifest(dir);
  const stale = indexStaleness(m, digests);
  const changed = [
    m.embedderSpec !== settings.embedderSpec
      ? `embedder ${m.embedderSpec ?? 'none'} → ${settings.embedderSpec ?? 'none'}`
      : '',
    m.maxTokens !== settings.maxTokens ? `--max-tokens ${m.maxTokens} → ${settings.maxTokens}` : '',
    // Indexes from before this setting kept every paragraph, references included.
    (m.includeReferences ?? true) !== settings.includeReferences
      ? `references ${m.includeReferences ? 'kept' : 'left out'} → ${settings.includeReferences ? 'kept' : 'left out'}`
      : '',
  ].filter(Boolean);
  if (!stale && changed.length === 0) return { state: 'fresh', manifest: m };
  return {
    state: 'stale',
    manifest: m,
    reasons: [stale ? describeStaleness(stale) : '', ...changed].filter(Boolean),
  };
}

export interface IndexCorpusOptions {
  /** The embedder spec of the dense side (`lsa:256`, `openai:…`), or null for BM25 only. */
  embedder: string | null;
  /** Where an embedder's key is read from (default: none). */
  env?: Record<string, string | undefined>;
  /** Passage token budget (default `DEFAULT_PASSAGE_TOKENS`). */
  maxTokens?: number;
  /** Index bibliography entries too (default false). */
  includeReferences?: boolean;
  /** Rebuild even when the index is up to date (default false). */
  rebuild?: boolean;
  /** Called with the reasons before an existing index is rebuilt. */
  onRebuild?: (reasons: string[]) => void;
  /** Called as papers are indexed and passages embedded (`pass`: which of the two). */
  onProgress?: BuildIndexOptions['onProgress'];
}

export type IndexCorpusResult =
  | { status: 'up-to-date'; manifest: IndexManifest; papers: number }
  | { status: 'built'; manifest: IndexManifest; papers: number };

/**
 * Builds the index of a corpus in `dir` (BM25 and, with an embedder, dense vectors), unless the
 * index there is up to date with the corpus and the settings (`checkIndex`).
 */
export async function indexCorpus(
  corpus: IndexableCorpus,
  dir: string,
  options: IndexCorpusOptions,
): Promise<IndexCorpusResult> {
  const digests = corpus.digests();
  const settings: IndexSettings = {
    embedderSpec: options.embedder,
    maxTokens: options.maxTokens ?? DEFAULT_PASSAGE_TOKENS,
    includeReferences: options.includeReferences ?? false,
  };
  if (!options.rebuild) {
    const check = checkIndex(dir, digests, settings);
    if (check.state === 'fresh')
      return { status: 'up-to-date', manifest: check.manifest, papers: digests.size };
    if (check.state === 'stale') options.onRebuild?.(check.reasons);
  }
  // Streamed from the corpus one paper at a time: memory does not grow with the corpus.
  function* documents(): Generator<IndexedDocument> {
    for (const [id, digest] of digests) {
      const document = corpus.get(id);
      if (document) yield { document, digest };
    }
  }
  const manifest = await writeIndex(dir, documents, {
    maxTokens: settings.maxTokens,
    includeReferences: settings.includeReferences,
    embedder: options.embedder
      ? { spec: options.embedder, embedder: createEmbedder(options.embedder, { env: options.env ?? {} }) }
      : null,
    version: VERSION,
    total: digests.size,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return { status: 'built', manifest, papers: manifest.documents.length };
}

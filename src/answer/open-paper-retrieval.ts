import type { ProviderEnv } from '../llm/index.js';
import {
  assertIndexFresh,
  BM25_ALONE,
  corpusStaleness,
  defaultRetrieval,
  describeRetrieval,
  describeStaleness,
  embedderKind,
  indexDirFor,
  indexExists,
  loadEmbedderModel,
  readManifest,
  restoreEmbedder,
} from '../retrieve/index.js';
import { openCorpus } from '../store/index.js';
import type { PaperRetrieval } from './paper-context.js';

/** How `answer` ranks passages within a paper, and what it says about it. */
export interface PaperRetrievalSetup {
  retrieval: PaperRetrieval;
  description: string;
  /** A one-line note for the user when the measured default cannot be used (no index). */
  note: string | null;
}

export interface OpenPaperRetrievalOptions {
  /** The corpus file papers come from; absent when they come from a papers folder. */
  corpusPath?: string | undefined;
  /**
   * Refuse an index that no longer matches the corpus (`INDEX_STALE`), as when every row
   * retrieves; otherwise it is set aside with a note and BM25 ranks alone.
   */
  strict: boolean;
  /** Where an embedder's key is read from (default: none). */
  env?: ProviderEnv;
}

/**
 * The within-paper retrieval of the answerers: the measured default for the index beside the
 * corpus (`defaultRetrieval({ scope: 'paper' })`: BM25 fused with the index's embedder); BM25
 * alone when papers come from a folder or the corpus has no index. An index that no longer matches
 * the corpus is refused when `strict` (`--context retrieval`, the extractive answerer); otherwise,
 * where only papers too long for the model retrieve, it is set aside with a note.
 */
export function openPaperRetrieval(options: OpenPaperRetrievalOptions): PaperRetrievalSetup {
  const bm25Only = (note: string | null): PaperRetrievalSetup => ({
    retrieval: { config: BM25_ALONE, embedder: null },
    description: `within-paper ${describeRetrieval(BM25_ALONE)}`,
    note,
  });
  if (!options.corpusPath) return bm25Only(null);
  const dir = indexDirFor(options.corpusPath);
  if (!indexExists(dir)) {
    return bm25Only(
      'the corpus has no index, so passages are ranked by BM25 alone; `citegeist index` enables the measured default (BM25 fused with the embedded LSA embedder: +0.04 nDCG@10 within a paper on QASPER dev, docs/retrieval.md)',
    );
  }
  const manifest = readManifest(dir);
  const store = openCorpus(options.corpusPath);
  let stale: ReturnType<typeof corpusStaleness> = null;
  try {
    if (options.strict) assertIndexFresh(dir, manifest, store);
    else stale = corpusStaleness(dir, manifest, store);
  } finally {
    store.close();
  }
  if (!options.strict) {
    if (stale) {
      return bm25Only(
        `the index does not match the corpus (${describeStaleness(stale)}), so passages of papers too long for the model are ranked by BM25 alone; run \`citegeist index\` to use the measured default`,
      );
    }
  }
  const config = defaultRetrieval({ scope: 'paper', embedder: embedderKind(manifest.embedderSpec) });
  if (!config.dense) return bm25Only(null);
  const embedder = restoreEmbedder(
    { manifest, embedderModel: loadEmbedderModel(dir) },
    undefined,
    options.env ?? {},
  );
  return {
    retrieval: { config, embedder },
    description: `within-paper ${describeRetrieval(config)}: ${embedder.id}`,
    note: null,
  };
}

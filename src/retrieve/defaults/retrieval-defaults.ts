import type { Retriever } from '../common/index.js';
import { type FusionConfig, HybridRetriever } from '../fusion/index.js';
import { type Bm25DiskIndex, type Bm25Index, Bm25Retriever, type Rm3Options } from '../lexical/index.js';

/** Where retrieval runs: over a whole corpus (`search`, `retrieve`) or within one paper (`answer`). */
export type RetrievalScope = 'corpus' | 'paper';

/**
 * Which embedder the dense side would use: the embedded LSA default (fitted on the corpus), one
 * the user configured (an embedding model), or none (no dense vectors at all).
 */
export type EmbedderKind = 'embedded' | 'configured' | 'none';

export interface RetrievalSituation {
  scope: RetrievalScope;
  embedder: EmbedderKind;
}

/** A retrieval configuration: BM25 (optionally with RM3), alone or fused with the dense retriever. */
export interface RetrievalConfig {
  lexical: { rm3: Rm3Options | null };
  /** Null: BM25 alone (the dense retriever is left out). */
  dense: { fusion: FusionConfig } | null;
}

/** BM25 alone, without feedback: `--mode bm25`. */
export const BM25_ALONE: RetrievalConfig = { lexical: { rm3: null }, dense: null };

/** The kind of an embedder spec: the download-free ones fitted or hashed here are `embedded`. */
export function embedderKind(spec: string | null | undefined): EmbedderKind {
  if (!spec) return 'none';
  const kind = spec.trim().split(':')[0];
  return kind === 'default' || kind === 'lsa' || kind === 'lsa-bm25' || kind === 'hashed'
    ? 'embedded'
    : 'configured';
}

/**
 * Min–max score fusion of BM25 (weight 1 − w) and the dense side (w). `weightedFusion` normalises
 * each list to [0, 1] before weighting, so neither retriever's score scale dominates and a small w
 * cannot pull the result far below the lexical ranking.
 */
function fused(denseWeight: number): RetrievalConfig {
  return {
    lexical: { rm3: null },
    dense: {
      fusion: { method: 'weighted', weights: [Math.round((1 - denseWeight) * 100) / 100, denseWeight] },
    },
  };
}

/**
 * Measured on QASPER dev by scripts/measure-retrieval.ts (weights tuned on the tuning half; the
 * held-out half is in docs/retrieval.md): within one paper, BM25 fused with the embedded LSA
 * embedder at dense weight 0.70 gained +0.04 nDCG@10 over BM25 alone (p < 0.001); corpus-wide
 * no fusion with LSA (any weight, RRF or min–max, LSA over tf-idf or BM25 weights, 256 or 512
 * dimensions) nor RM3 gained the 0.005 the rule asks for.
 */
const PAPER_EMBEDDED = fused(0.7);
const CORPUS_EMBEDDED_HYBRID = fused(0.1);
/** Not measured here (no embedding model is reachable offline): equal weights, see the docs. */
const CONFIGURED = fused(0.5);

/**
 * The default retrieval configuration for a situation. The rule (docs/retrieval.md, "Defaults"):
 * start from BM25 alone and take a configuration that adds something (RM3, a dense side, another
 * embedder) only if it beats the simpler one by at least 0.005 nDCG@10 on the tuning half of
 * QASPER dev; check the choice on the held-out half. That gives:
 * - no dense vectors, or corpus-wide with the embedded embedder: BM25 alone;
 * - within one paper with the embedded embedder: BM25 + LSA, min–max fusion, dense weight 0.7;
 * - a configured embedding model: min–max fusion with equal weights (not measured here; measure
 *   yours with `scripts/measure-retrieval.ts --embedder <spec>`).
 */
export function defaultRetrieval(situation: RetrievalSituation): RetrievalConfig {
  if (situation.embedder === 'none') return BM25_ALONE;
  if (situation.embedder === 'configured') return CONFIGURED;
  return situation.scope === 'paper' ? PAPER_EMBEDDED : BM25_ALONE;
}

/**
 * `--mode hybrid`: the best measured fusion of BM25 with the dense side (the tuned weights even
 * where the default leaves the dense side out: corpus-wide with LSA, dense weight 0.1).
 */
export function hybridRetrieval(situation: RetrievalSituation): RetrievalConfig {
  if (situation.embedder === 'configured') return CONFIGURED;
  return situation.scope === 'paper' ? PAPER_EMBEDDED : CORPUS_EMBEDDED_HYBRID;
}

/** One line saying what a configuration runs, for `search` output and run manifests. */
export function describeRetrieval(config: RetrievalConfig): string {
  const lexical = config.lexical.rm3 ? 'BM25 + RM3' : 'BM25';
  if (!config.dense) return `${lexical} alone`;
  const { method, weights } = config.dense.fusion;
  return `${lexical} fused with dense (${method}${weights?.length ? `, weights ${weights.join('/')}` : ''})`;
}

/** The retriever a configuration describes, over a BM25 index and (when it fuses) a dense retriever. */
export function createRetriever(
  config: RetrievalConfig,
  parts: { bm25: Bm25Index | Bm25DiskIndex; dense?: Retriever | null },
): Retriever {
  const lexical = new Bm25Retriever(parts.bm25, config.lexical.rm3);
  if (!config.dense || !parts.dense) return lexical;
  return new HybridRetriever([lexical, parts.dense], config.dense.fusion);
}

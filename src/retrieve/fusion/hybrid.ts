import type { Retriever, ScoredPassage } from '../common/index.js';
import { naiveFusion, rrfFusion, weightedFusion } from './fusion.js';

export type FusionMethod = 'rrf' | 'naive' | 'weighted';

export interface FusionConfig {
  method: FusionMethod;
  /** One weight per fused retriever, in order (default 1 each). */
  weights?: readonly number[];
  /**
   * How many results each retriever contributes (default max(k, 100)). Fixed rather than a
   * multiple of k so that min–max normalisation (`weighted`) sees the same lists whatever k is
   * asked for: the measured configuration and the one users run rank their top 10 identically.
   */
  depth?: number;
}

/** The fusion depth for k results (see `FusionConfig.depth`). */
export const FUSION_DEPTH = 100;

/** Fuses ranked lists by `config` (the shared step of `HybridRetriever` and the within-paper ranker). */
export function fuseLists(
  lists: readonly (readonly ScoredPassage[])[],
  config: FusionConfig,
): ScoredPassage[] {
  const weights = config.weights ?? [];
  return config.method === 'naive'
    ? naiveFusion(lists)
    : config.method === 'weighted'
      ? weightedFusion(lists, weights)
      : rrfFusion(lists, { weights });
}

/** Several retrievers fused into one (default: reciprocal rank fusion, k = 60, equal weights). */
export class HybridRetriever implements Retriever {
  readonly id: string;
  private readonly config: FusionConfig;

  constructor(
    private readonly retrievers: readonly Retriever[],
    config: FusionConfig | FusionMethod = 'rrf',
  ) {
    this.config = typeof config === 'string' ? { method: config } : config;
    const w = this.config.weights?.length ? `[${this.config.weights.join(',')}]` : '';
    this.id = `hybrid-${this.config.method}${w}(${retrievers.map((r) => r.id).join('+')})`;
  }

  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const depth = Math.max(k, this.config.depth ?? FUSION_DEPTH);
    const lists = await Promise.all(this.retrievers.map((r) => r.retrieve(query, depth)));
    return fuseLists(lists, this.config).slice(0, k);
  }
}

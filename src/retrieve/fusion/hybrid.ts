import type { Retriever, ScoredPassage } from '../common/index.js';
import { naiveFusion, rrfFusion, weightedFusion } from './fusion.js';

export type FusionMethod = 'rrf' | 'naive' | 'weighted';

/** Several retrievers fused into one (default: reciprocal rank fusion, k = 60, each asked for max(4k, 20)). */
export class HybridRetriever implements Retriever {
  readonly id: string;

  constructor(
    private readonly retrievers: readonly Retriever[],
    private readonly method: FusionMethod = 'rrf',
    private readonly weights: readonly number[] = [],
  ) {
    this.id = `hybrid-${method}(${retrievers.map((r) => r.id).join('+')})`;
  }

  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    const depth = Math.max(4 * k, 20);
    const lists = await Promise.all(this.retrievers.map((r) => r.retrieve(query, depth)));
    const fused =
      this.method === 'naive'
        ? naiveFusion(lists)
        : this.method === 'weighted'
          ? weightedFusion(lists, this.weights)
          : rrfFusion(lists, { weights: this.weights });
    return fused.slice(0, k);
  }
}

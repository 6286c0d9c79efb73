import type { Embedder } from '../../llm/index.js';
import type { Retriever, ScoredPassage } from '../common/index.js';
import { DenseIndex, type DenseMode, type VectorIndex } from '../dense/index.js';
import type { Passage } from '../passages/index.js';
import {
  type Candidate,
  type RankedDocument,
  type ReciperMethod,
  rankByMethod,
  type Stream,
} from './reciper-fusion.js';

export interface RecipeDoc {
  docId: string;
  title: string;
  /** Rendered recipe (`renderRecipe`). */
  text: string;
}

/**
 * RECIPER dual-view retrieval with one embedder: paragraphs and recipes each in their own dense
 * index, top-K of each with K = max(4k, 20), fused by `method` (default RECIPER). Returns
 * documents (one item per document; `id` is the winning candidate: a passage id or `<docId>#recipe`).
 */
export class ReciperRetriever implements Retriever {
  readonly id: string;

  private constructor(
    private readonly embedder: Embedder,
    private readonly paragraphs: Map<string, Passage>,
    private readonly recipes: Map<string, RecipeDoc>,
    private readonly paragraphIndex: VectorIndex,
    private readonly recipeIndex: DenseIndex,
    private readonly method: ReciperMethod,
    private readonly paragraphCandidates: Retriever | null,
  ) {
    this.id = paragraphCandidates ? `${method}(paragraphs from ${paragraphCandidates.id})` : method;
  }

  static async build(
    embedder: Embedder,
    passages: readonly Passage[],
    recipes: readonly RecipeDoc[],
    options: {
      method?: ReciperMethod;
      mode?: DenseMode;
      paragraphIndex?: VectorIndex;
      /**
       * Where the paragraph stream's top-K candidates come from (default: the paragraph dense
       * index). The CLI passes the measured corpus-wide default (`defaultRetrieval`: BM25 alone
       * with the embedded LSA embedder, which ranks far below BM25 corpus-wide); candidates keep
       * their cosine with the query as score, so RECIPER's ŝ = s + λ·o is computed as specified.
       */
      paragraphCandidates?: Retriever;
    } = {},
  ): Promise<ReciperRetriever> {
    const paragraphIndex =
      options.paragraphIndex ??
      DenseIndex.fromVectors(
        embedder.id,
        passages.map((p) => p.id),
        await embedder.embed(
          passages.map((p) => p.text),
          'passage',
        ),
        options.mode,
      );
    const recipeIds = recipes.map((r) => `${r.docId}#recipe`);
    const recipeIndex = DenseIndex.fromVectors(
      embedder.id,
      recipeIds,
      await embedder.embed(
        recipes.map((r) => r.text),
        'passage',
      ),
      options.mode,
      embedder.dimensions,
    );
    return new ReciperRetriever(
      embedder,
      new Map(passages.map((p) => [p.id, p])),
      new Map(recipes.map((r) => [`${r.docId}#recipe`, r])),
      paragraphIndex,
      recipeIndex,
      options.method ?? 'reciper',
      options.paragraphCandidates ?? null,
    );
  }

  /** Document ranking with the winning candidate of each document. */
  async rank(query: string, k: number): Promise<RankedDocument[]> {
    const depth = Math.max(4 * k, 20);
    const [qv] = await this.embedder.embed([query], 'query');
    const q = qv ?? new Float32Array(this.paragraphIndex.dimensions);
    const [pHits = []] = this.paragraphCandidates
      ? [
          this.paragraphIndex.scoreIds(
            q,
            (await this.paragraphCandidates.retrieve(query, depth)).map((h) => h.id),
          ),
        ]
      : this.paragraphIndex.search([q], depth);
    const [rHits = []] = this.recipeIndex.ids.length ? this.recipeIndex.search([q], depth) : [[]];
    const paragraphs = toCandidates(pHits, this.paragraphs, 'paragraph');
    const recipes = toCandidates(rHits, this.recipes, 'recipe');
    return rankByMethod(this.method, query, paragraphs, recipes).slice(0, k);
  }

  async retrieve(query: string, k: number): Promise<ScoredPassage[]> {
    return (await this.rank(query, k)).map((d) => ({ id: d.best.id, docId: d.docId, score: d.score }));
  }
}

/** Dense hits → candidates of one stream (hits whose id is not in `docs` are dropped). */
function toCandidates(
  hits: readonly { id: string; score: number }[],
  docs: ReadonlyMap<string, { docId: string; title: string; text: string }>,
  stream: Stream,
): Candidate[] {
  return hits.flatMap((h) => {
    const d = docs.get(h.id);
    return d ? [{ id: h.id, docId: d.docId, score: h.score, title: d.title, text: d.text, stream }] : [];
  });
}

import { dirname, join } from 'node:path';
import { CitegeistError, quoteValue } from '../core/index.js';
import { createEmbedder, type Embedder, LsaEmbedder, type LsaModelJson, needsFitting } from '../llm/index.js';
import {
  Bm25Retriever,
  DenseRetriever,
  HybridRetriever,
  JsonlRecipeStore,
  loadIndex,
  openDense,
  type Passage,
  ReciperRetriever,
  type Retriever,
  recipeTexts,
  type SavedIndex,
} from '../retrieve/index.js';
import type { CliContext } from './context.js';
import { corpusPath } from './corpus-option.js';

export const MODES = ['bm25', 'dense', 'hybrid', 'reciper', 'reciper-public'] as const;
export type Mode = (typeof MODES)[number];

/** The index folder of a corpus: `index/` beside the corpus file. */
export function indexDirOf(ctx: CliContext, corpusFlag: string | undefined): string {
  return join(dirname(corpusPath(ctx, corpusFlag)), 'index');
}

export function recipesPathOf(indexDir: string): string {
  return join(indexDir, 'recipes.jsonl');
}

export function parseMode(value: string): Mode {
  if (!(MODES as readonly string[]).includes(value)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--mode ${quoteValue(value)} is not a retrieval mode.`,
      `Use one of ${MODES.join(', ')}.`,
    );
  }
  return value as Mode;
}

/** The embedder an index was built with, restored (a corpus-fitted model is read from the index). */
export function restoreEmbedder(
  saved: SavedIndex,
  requested: string | undefined,
  env: Record<string, string | undefined>,
): Embedder {
  const spec = requested ?? saved.manifest.embedderSpec;
  if (!spec) {
    throw new CitegeistError(
      'INDEX_NO_VECTORS',
      'The index was built without an embedder.',
      'Rebuild it with `citegeist index --rebuild --embedder <spec>`.',
    );
  }
  const embedder = createEmbedder(spec, { env });
  if (
    needsFitting(embedder) &&
    saved.embedderModel &&
    spec === saved.manifest.embedderSpec &&
    embedder instanceof LsaEmbedder
  ) {
    return LsaEmbedder.fromJSON(saved.embedderModel as LsaModelJson);
  }
  return embedder;
}

export interface OpenedIndex {
  dir: string;
  saved: SavedIndex;
  passages: Map<string, Passage>;
  retriever: Retriever;
}

/** Loads the index folder and builds the retriever for `mode`. */
export async function openRetriever(
  ctx: CliContext,
  options: { corpus?: string | undefined; mode: Mode; embedder?: string | undefined },
): Promise<OpenedIndex> {
  const dir = indexDirOf(ctx, options.corpus);
  const saved = loadIndex(dir);
  const passages = new Map(saved.passages.map((p) => [p.id, p]));
  const bm25 = new Bm25Retriever(saved.bm25);
  if (options.mode === 'bm25') return { dir, saved, passages, retriever: bm25 };
  const embedder = restoreEmbedder(saved, options.embedder ?? ctx.config().embedder, ctx.io.env);
  const dense = openDense(dir, saved, embedder);
  const denseRetriever = new DenseRetriever(dense, embedder);
  if (options.mode === 'dense') return { dir, saved, passages, retriever: denseRetriever };
  if (options.mode === 'hybrid')
    return { dir, saved, passages, retriever: new HybridRetriever([bm25, denseRetriever]) };
  const store = new JsonlRecipeStore(recipesPathOf(dir));
  const titles = new Map(saved.passages.map((p) => [p.docId, p.title]));
  const recipes = [...recipeTexts(store)].map(([docId, text]) => ({
    docId,
    title: titles.get(docId) ?? '',
    text,
  }));
  if (recipes.length === 0) {
    throw new CitegeistError(
      'RECIPES_MISSING',
      `No recipes are stored in ${recipesPathOf(dir)}; RECIPER needs them for its second view.`,
      'Extract them first: `citegeist recipes extract --model <spec>` (needs a model).',
    );
  }
  const retriever = await ReciperRetriever.build(embedder, saved.passages, recipes, {
    method: options.mode,
    paragraphIndex: dense,
  });
  return { dir, saved, passages, retriever };
}

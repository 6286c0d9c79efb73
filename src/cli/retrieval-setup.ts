import { dirname, join, resolve } from 'node:path';
import type { PaperRetrieval } from '../answer/index.js';
import { CitegeistError, quoteValue } from '../core/index.js';
import { createEmbedder, type Embedder, LsaEmbedder, type LsaModelJson, needsFitting } from '../llm/index.js';
import {
  assertIndexFresh,
  BM25_ALONE,
  createRetriever,
  DenseRetriever,
  defaultRetrieval,
  describeRetrieval,
  describeStaleness,
  embedderKind,
  hybridRetrieval,
  indexExists,
  indexStaleness,
  JsonlRecipeStore,
  loadEmbedderModel,
  loadIndex,
  openDense,
  type Passage,
  ReciperRetriever,
  type RetrievalConfig,
  type Retriever,
  readManifest,
  recipeTexts,
  type SavedIndex,
} from '../retrieve/index.js';
import type { CliContext } from './context.js';
import { corpusPath, openCorpus } from './corpus-option.js';

export const MODES = ['auto', 'bm25', 'dense', 'hybrid', 'reciper', 'reciper-public'] as const;
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
  saved: Pick<SavedIndex, 'manifest' | 'embedderModel'>,
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
  /** The mode that ran (`auto` resolved) and what it is, for output and run records. */
  mode: Exclude<Mode, 'auto'>;
  description: string;
  /** The embedder id of the dense side, when one is used. */
  embedderId: string | null;
  /** Set when the run is known to rank worse than BM25 alone (dense/hybrid on the embedded embedder). */
  warning: string | null;
}

/** The corpus's content digests, to check the index against (`INDEX_STALE`). */
function corpusDigests(ctx: CliContext, corpusFlag: string | undefined): Map<string, string> {
  const store = openCorpus(corpusPath(ctx, corpusFlag));
  try {
    return store.digests();
  } finally {
    store.close();
  }
}

/**
 * Loads the index folder (refusing one that no longer matches the corpus: `INDEX_STALE`) and
 * builds the retriever for `mode`. `auto` is the measured default for corpus-wide retrieval with
 * the index's embedder (`defaultRetrieval`); `hybrid` is the best measured fusion.
 */
export async function openRetriever(
  ctx: CliContext,
  options: { corpus?: string | undefined; mode: Mode; embedder?: string | undefined },
): Promise<OpenedIndex> {
  const dir = indexDirOf(ctx, options.corpus);
  const saved = loadIndex(dir);
  assertIndexFresh(dir, saved.manifest, corpusDigests(ctx, options.corpus));
  const passages = new Map(saved.passages.map((p) => [p.id, p]));
  const requested = options.embedder ?? ctx.config().embedder;
  const situation = {
    scope: 'corpus' as const,
    embedder: embedderKind(requested ?? saved.manifest.embedderSpec),
  };
  const base = { dir, saved, passages };
  let mode = options.mode;
  let config: RetrievalConfig | null = null;
  if (mode === 'auto') {
    config = defaultRetrieval(situation);
    mode = config.dense ? 'hybrid' : 'bm25';
  } else if (mode === 'hybrid') config = hybridRetrieval(situation);
  else if (mode === 'bm25') config = BM25_ALONE;
  if (config && !config.dense) {
    const retriever = createRetriever(config, { bm25: saved.bm25 });
    return {
      ...base,
      retriever,
      mode: 'bm25',
      description: describeRetrieval(config),
      embedderId: null,
      warning: null,
    };
  }
  const embedder = restoreEmbedder(saved, requested, ctx.io.env);
  const dense = openDense(dir, saved, embedder);
  const denseRetriever = new DenseRetriever(dense, embedder);
  const warning = situation.embedder === 'embedded' ? embeddedWarning(mode, embedder.id) : null;
  const common = { ...base, embedderId: embedder.id, warning };
  if (config) {
    const retriever = createRetriever(config, { bm25: saved.bm25, dense: denseRetriever });
    return {
      ...common,
      retriever,
      mode: 'hybrid',
      description: describeRetrieval(config),
    };
  }
  if (mode === 'dense') return { ...common, retriever: denseRetriever, mode, description: 'dense alone' };
  if (mode !== 'reciper' && mode !== 'reciper-public') throw new Error(`unreachable mode ${mode}`);
  // The paragraph stream's candidates come from the measured corpus-wide default (BM25 alone with
  // the embedded embedder); RECIPER then scores them by cosine as the method specifies.
  const candidates = createRetriever(defaultRetrieval(situation), {
    bm25: saved.bm25,
    dense: denseRetriever,
  });
  const retriever = await ReciperRetriever.build(embedder, saved.passages, recipesOf(dir, saved), {
    method: mode,
    paragraphIndex: dense,
    paragraphCandidates: candidates,
  });
  return { ...common, retriever, mode, description: `${mode} (paragraph candidates: ${candidates.id})` };
}

/** The warning for dense or hybrid retrieval corpus-wide on an embedded embedder (measured figures). */
function embeddedWarning(mode: Mode, embedderId: string): string | null {
  const name = embedderId.replace(/@.*/, '');
  if (mode === 'dense') {
    return `dense retrieval with the embedded ${name} embedder ranks corpus-wide results far below BM25 alone (for the default LSA: nDCG@10 0.057 against 0.138 on QASPER dev, docs/retrieval.md); the default (--mode auto) is BM25. An embedding model (index --embedder …) is what makes dense retrieval worthwhile.`;
  }
  if (mode === 'hybrid') {
    return `hybrid retrieval with the embedded ${name} embedder adds nothing measurable corpus-wide (for the default LSA: +0.001 nDCG@10 over BM25 alone on QASPER dev, p = 0.64, docs/retrieval.md) and embeds every query; the default (--mode auto) is BM25.`;
  }
  return null;
}

/** RECIPER's recipe view: the stored recipes with their papers' titles (refused when there are none). */
function recipesOf(dir: string, saved: SavedIndex): { docId: string; title: string; text: string }[] {
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
  return recipes;
}

/** How `answer` ranks passages within a paper, and what it says about it. */
export interface PaperRetrievalSetup {
  retrieval: PaperRetrieval;
  description: string;
  /** A one-line note for stderr when the measured default cannot be used (no index). */
  note: string | null;
}

/**
 * The within-paper retrieval of `answer` and the extractive answerer: the measured default for
 * the index beside the corpus (`defaultRetrieval({ scope: 'paper' })`: BM25 fused with the
 * index's embedder); BM25 alone when papers come from `--papers` or the corpus has no index. An
 * index that no longer matches the corpus is refused (`INDEX_STALE`) when every row retrieves
 * (`strict`: `--context retrieval`, the extractive answerer); with `--context auto`, where only
 * papers too long for the model retrieve, it is set aside with a note and BM25 ranks alone.
 */
export function openPaperRetrieval(
  ctx: CliContext,
  source: { papers?: string; corpus?: string },
  options: { strict: boolean },
): PaperRetrievalSetup {
  const bm25Only = (note: string | null): PaperRetrievalSetup => ({
    retrieval: { config: BM25_ALONE, embedder: null },
    description: `within-paper ${describeRetrieval(BM25_ALONE)}`,
    note,
  });
  if (!source.corpus) return bm25Only(null);
  const dir = join(dirname(resolve(ctx.io.cwd, source.corpus)), 'index');
  if (!indexExists(dir)) {
    return bm25Only(
      'the corpus has no index, so passages are ranked by BM25 alone; `citegeist index` enables the measured default (BM25 fused with the embedded LSA embedder: +0.04 nDCG@10 within a paper on QASPER dev, docs/retrieval.md)',
    );
  }
  const manifest = readManifest(dir);
  const digests = corpusDigests(ctx, source.corpus);
  if (options.strict) assertIndexFresh(dir, manifest, digests);
  else {
    const stale = indexStaleness(manifest, digests);
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
    ctx.io.env,
  );
  return {
    retrieval: { config, embedder },
    description: `within-paper ${describeRetrieval(config)}: ${embedder.id}`,
    note: null,
  };
}

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
  loadEmbedderModel,
  loadIndex,
  openDense,
  type Passage,
  paperSha256,
  ReciperRetriever,
  type RetrievalConfig,
  type Retriever,
  readManifest,
  readRecipes,
  renderRecipe,
  type SavedIndex,
} from '../retrieve/index.js';
import type { CliContext } from './context.js';
import { corpusPath, displayPath, openCorpus } from './corpus-option.js';

export const MODES = ['auto', 'bm25', 'dense', 'hybrid', 'reciper', 'reciper-public'] as const;
export type Mode = (typeof MODES)[number];

/** The index folder of a corpus: `index/` beside the corpus file. */
export function indexDirOf(ctx: CliContext, corpusFlag: string | undefined): string {
  return join(dirname(corpusPath(ctx, corpusFlag)), 'index');
}

export function recipesPathOf(indexDir: string): string {
  return join(indexDir, 'recipes.jsonl');
}

export const RECIPES_OPTION = [
  '--recipes <file>',
  'recipes for --mode reciper (default: index/recipes.jsonl beside the corpus; `recipes extract --out` writes another)',
] as const;

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
  passages: ReadonlyMap<string, Passage>;
  retriever: Retriever;
  /** The mode that ran (`auto` resolved) and what it is, for output and run records. */
  mode: Exclude<Mode, 'auto'>;
  description: string;
  /** The embedder id of the dense side, when one is used. */
  embedderId: string | null;
  /** Set when the run is known to rank worse than BM25 alone (dense/hybrid on the embedded embedder). */
  warning: string | null;
  /** RECIPER modes: the recipes the recipe view ranks and where they came from; else null. */
  recipes: UsedRecipes | null;
}

/** The recipes a RECIPER mode uses, and how they were made (for run records). */
export interface UsedRecipes {
  /** Document id → rendered recipe text. */
  texts: ReadonlyMap<string, string>;
  file: string;
  /** From the file's manifest; null for a file of an older citegeist. */
  model: string | null;
  runId: string | null;
  /** Recipes left out because their paper changed since they were extracted. */
  stale: number;
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
  options: {
    corpus?: string | undefined;
    mode: Mode;
    embedder?: string | undefined;
    /** `--recipes`: the recipes file of a RECIPER mode (default `recipesPathOf(dir)`). */
    recipes?: string | undefined;
  },
): Promise<OpenedIndex> {
  const dir = indexDirOf(ctx, options.corpus);
  const saved = loadIndex(dir);
  assertIndexFresh(dir, saved.manifest, corpusDigests(ctx, options.corpus));
  const passages = saved.passages;
  const requested = options.embedder ?? ctx.config().embedder;
  const situation = {
    scope: 'corpus' as const,
    embedder: embedderKind(requested ?? saved.manifest.embedderSpec),
  };
  const base = { dir, saved, passages, recipes: null };
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
  const recipes = recipesOf(
    ctx,
    saved,
    options.recipes ? resolve(ctx.io.cwd, options.recipes) : recipesPathOf(dir),
    options.corpus,
  );
  const retriever = await ReciperRetriever.build(embedder, saved.passages.toArray(), recipes.list, {
    method: mode,
    paragraphIndex: dense,
    paragraphCandidates: candidates,
  });
  return {
    ...common,
    retriever,
    mode,
    description: `${mode} (paragraph candidates: ${candidates.id}; ${recipes.description})`,
    recipes: recipes.used,
  };
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

/**
 * RECIPER's recipe view: the stored recipes of indexed papers with their titles. A recipe made from
 * an earlier version of its paper is left out with a warning (the paper is then ranked by its
 * paragraphs alone); a file from an older citegeist, which records no paper versions, is used as it
 * is with a note. Refused (RECIPES_MISSING) when no recipe is left.
 */
function recipesOf(
  ctx: CliContext,
  saved: SavedIndex,
  path: string,
  corpusFlag: string | undefined,
): { list: { docId: string; title: string; text: string }[]; description: string; used: UsedRecipes } {
  const stored = readRecipes(path);
  const shown = displayPath(ctx, path);
  const titles = new Map([...saved.passages.values()].map((p) => [p.docId, p.title]));
  const indexed = [...stored.recipes].filter(([docId]) => titles.has(docId));
  const current = stored.manifest
    ? paperHashes(
        ctx,
        corpusFlag,
        indexed.map(([docId]) => docId),
      )
    : null;
  const stale = current ? indexed.filter(([docId, r]) => current.get(docId) !== r.paperSha256) : [];
  const list = indexed
    .filter((entry) => !stale.includes(entry))
    .map(([docId, r]) => ({ docId, title: titles.get(docId) ?? '', text: renderRecipe(r.recipe) }));
  if (stored.torn)
    ctx.io.err(
      `note: the last line of ${shown} is cut short (an extraction was killed or is still running); it is skipped\n`,
    );
  if (!stored.manifest && stored.recipes.size > 0) {
    ctx.io.err(
      `note: ${shown} has no manifest (an older citegeist wrote it): the model and the paper versions its recipes were made from are not recorded, so they are used as they are; to record them, move it away and run \`citegeist recipes extract\` again\n`,
    );
  }
  if (stale.length > 0) {
    const ids = stale
      .slice(0, 5)
      .map(([docId]) => docId)
      .join(', ');
    ctx.io.err(
      `warning: ${stale.length} recipe(s) in ${shown} were extracted from an earlier version of their paper (${ids}${stale.length > 5 ? ', …' : ''}); they are left out until \`citegeist recipes extract\` redoes them\n`,
    );
  }
  if (list.length === 0) {
    const why =
      stored.recipes.size === 0
        ? `No recipes are stored in ${shown}`
        : `None of the ${stored.recipes.size} recipes in ${shown} is of a paper as it is indexed now (${stale.length} stale, ${stored.recipes.size - indexed.length} of papers not in the index)`;
    throw new CitegeistError(
      'RECIPES_MISSING',
      `${why}; RECIPER needs them for its second view.`,
      'Extract them first: `citegeist recipes extract --model <spec>` (needs a model).',
    );
  }
  const papers = new Set(titles.keys()).size;
  const model = stored.manifest ? String(stored.manifest.settings.model) : null;
  return {
    list,
    description: `recipes of ${list.length}/${papers} papers${model ? ` by ${model}` : ''}`,
    used: {
      texts: new Map(list.map((r) => [r.docId, r.text])),
      file: shown,
      model,
      runId: stored.manifest?.run_id ?? null,
      stale: stale.length,
    },
  };
}

/** The hash of each named document as it is in the corpus now (`paperSha256`; absent: not there). */
function paperHashes(
  ctx: CliContext,
  corpusFlag: string | undefined,
  ids: readonly string[],
): Map<string, string> {
  const store = openCorpus(corpusPath(ctx, corpusFlag));
  try {
    const out = new Map<string, string>();
    for (const id of ids) {
      const doc = store.get(id);
      if (doc) out.set(id, paperSha256(doc));
    }
    return out;
  } finally {
    store.close();
  }
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

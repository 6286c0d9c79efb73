import { join } from 'node:path';
import { CitegeistError } from '../core/index.js';
import type { ProviderEnv } from '../llm/index.js';
import type { Retriever } from './common/index.js';
import {
  BM25_ALONE,
  createRetriever,
  defaultRetrieval,
  describeRetrieval,
  embedderKind,
  hybridRetrieval,
  type RetrievalConfig,
} from './defaults/index.js';
import { type DenseMode, DenseRetriever } from './dense/index.js';
import type { Passage } from './passages/index.js';
import {
  assertIndexFresh,
  type IndexableCorpus,
  loadIndex,
  openDense,
  restoreEmbedder,
  type SavedIndex,
} from './persist/index.js';
import { paperSha256, ReciperRetriever, readRecipes, renderRecipe } from './reciper/index.js';

/** How `openRetriever` ranks: `auto` is the measured default; the rest name one retriever. */
export const RETRIEVAL_MODES = ['auto', 'bm25', 'dense', 'hybrid', 'reciper', 'reciper-public'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** A note or warning `openRetriever` has for the user (printed as `level: message`). */
export interface RetrievalNotice {
  level: 'note' | 'warning';
  message: string;
}

export interface OpenRetrieverOptions {
  /** The index folder (`citegeist index` writes `index/` beside the corpus file). */
  indexDir: string;
  /** The corpus the index was built from: an index that no longer matches it is refused. */
  corpus: IndexableCorpus;
  /** Default `auto`. */
  mode?: RetrievalMode;
  /** The embedder spec of the dense side (default: the one the index was built with). */
  embedder?: string | undefined;
  /**
   * How the dense side searches: `auto` (default) with the index's ANN graph when it has one
   * (`index --ann`), else exactly; `exact`; `ann` (INDEX_NO_ANN without a graph).
   */
  denseMode?: DenseMode | undefined;
  /** RECIPER modes: the recipes file (default `recipes.jsonl` in the index folder). */
  recipesPath?: string | undefined;
  /** Where an embedder's key is read from (default: none). */
  env?: ProviderEnv;
  /** Notes and warnings about the recipes used (default: dropped). */
  onNotice?: (notice: RetrievalNotice) => void;
  /** How a file is named in messages and run records (default: as given). */
  showPath?: (path: string) => string;
}

export interface OpenedIndex {
  dir: string;
  saved: SavedIndex;
  passages: ReadonlyMap<string, Passage>;
  retriever: Retriever;
  /** The mode that ran (`auto` resolved) and what it is, for output and run records. */
  mode: Exclude<RetrievalMode, 'auto'>;
  description: string;
  /** The embedder id of the dense side, when one is used. */
  embedderId: string | null;
  /** How the dense side searched (`exact`, or the ANN graph and its recall@10), when one is used. */
  denseSearch: string | null;
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

/** The recipes file of an index folder, where `recipes extract` writes by default. */
export function recipesPathOf(indexDir: string): string {
  return join(indexDir, 'recipes.jsonl');
}

/**
 * Loads an index folder (refusing one that no longer matches the corpus: `INDEX_STALE`) and
 * builds the retriever for the mode. `auto` is the measured default for corpus-wide retrieval with
 * the index's embedder (`defaultRetrieval`); `hybrid` is the best measured fusion.
 */
export async function openRetriever(options: OpenRetrieverOptions): Promise<OpenedIndex> {
  const dir = options.indexDir;
  const env = options.env ?? {};
  const saved = loadIndex(dir);
  assertIndexFresh(dir, saved.manifest, options.corpus);
  const passages = saved.passages;
  const requested = options.embedder;
  const situation = {
    scope: 'corpus' as const,
    embedder: embedderKind(requested ?? saved.manifest.embedderSpec),
  };
  const base = { dir, saved, passages, recipes: null };
  let mode = options.mode ?? 'auto';
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
      denseSearch: null,
      warning: null,
    };
  }
  const embedder = restoreEmbedder(saved, requested, env);
  const dense = openDense(dir, saved, embedder, options.denseMode ?? 'auto');
  const denseRetriever = new DenseRetriever(dense, embedder);
  const warning = situation.embedder === 'embedded' ? embeddedWarning(mode, embedder.id) : null;
  const graph = dense.kind === 'ann' ? saved.manifest.ann : null;
  const denseSearch = graph
    ? `ANN graph (HNSW, recall@10 ${graph.recallAt10?.toFixed(3) ?? 'not measured'} at efSearch ${graph.efSearch})`
    : 'exact';
  const common = { ...base, embedderId: embedder.id, denseSearch, warning };
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
  // The passage table is read once, for the paragraph view and the recipes' titles alike.
  const all = saved.passages.toArray();
  const recipes = recipesOf(all, options.recipesPath ?? recipesPathOf(dir), options);
  const retriever = await ReciperRetriever.build(embedder, all, recipes.list, {
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
function embeddedWarning(mode: RetrievalMode, embedderId: string): string | null {
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
  passages: readonly Passage[],
  path: string,
  options: Pick<OpenRetrieverOptions, 'corpus' | 'onNotice' | 'showPath'>,
): { list: { docId: string; title: string; text: string }[]; description: string; used: UsedRecipes } {
  const notice = options.onNotice ?? (() => {});
  const stored = readRecipes(path);
  const shown = options.showPath ? options.showPath(path) : path;
  const titles = new Map(passages.map((p) => [p.docId, p.title]));
  const indexed = [...stored.recipes].filter(([docId]) => titles.has(docId));
  const current = stored.manifest
    ? paperHashes(
        options.corpus,
        indexed.map(([docId]) => docId),
      )
    : null;
  const stale = current ? indexed.filter(([docId, r]) => current.get(docId) !== r.paperSha256) : [];
  const list = indexed
    .filter((entry) => !stale.includes(entry))
    .map(([docId, r]) => ({ docId, title: titles.get(docId) ?? '', text: renderRecipe(r.recipe) }));
  if (stored.torn)
    notice({
      level: 'note',
      message: `the last line of ${shown} is cut short (an extraction was killed or is still running); it is skipped`,
    });
  if (!stored.manifest && stored.recipes.size > 0) {
    notice({
      level: 'note',
      message: `${shown} has no manifest (an older citegeist wrote it): the model and the paper versions its recipes were made from are not recorded, so they are used as they are; to record them, move it away and run \`citegeist recipes extract\` again`,
    });
  }
  if (stale.length > 0) {
    const ids = stale
      .slice(0, 5)
      .map(([docId]) => docId)
      .join(', ');
    notice({
      level: 'warning',
      message: `${stale.length} recipe(s) in ${shown} were extracted from an earlier version of their paper (${ids}${stale.length > 5 ? ', …' : ''}); they are left out until \`citegeist recipes extract\` redoes them`,
    });
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
function paperHashes(corpus: IndexableCorpus, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const doc = corpus.get(id);
    if (doc) out.set(id, paperSha256(doc));
  }
  return out;
}

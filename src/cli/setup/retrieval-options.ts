import { resolve } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import {
  type DenseMode,
  indexDirFor,
  type OpenedIndex,
  openRetriever as openRetrieverOf,
  RETRIEVAL_MODES,
  type RetrievalMode,
} from '../../retrieve/index.js';
import type { CorpusStore } from '../../store/index.js';
import type { CliContext } from '../context.js';
import { corpusPath, displayPath, openCorpus, requireCorpus } from '../corpus-option.js';

export const MODES = RETRIEVAL_MODES;
export type Mode = RetrievalMode;

/** The index folder of a corpus: `index/` beside the corpus file. */
export function indexDirOf(ctx: CliContext, corpusFlag: string | undefined): string {
  return indexDirFor(corpusPath(ctx, corpusFlag));
}

export const RECIPES_OPTION = [
  '--recipes <file>',
  'recipes for --mode reciper (default: index/recipes.jsonl beside the corpus; `recipes extract --out` writes another)',
] as const;

export const DENSE_MODES = ['auto', 'exact', 'ann'] as const satisfies readonly DenseMode[];

export const DENSE_MODE_OPTION = [
  '--dense-mode <mode>',
  `how the dense side searches: ${DENSE_MODES.join(', ')} (auto: the index's ANN graph when \`index --ann\` built one, else exact)`,
  'auto',
] as const;

export function parseDenseMode(value: string): DenseMode {
  if (!(DENSE_MODES as readonly string[]).includes(value)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--dense-mode ${quoteValue(value)} is not a dense search mode.`,
      `Use one of ${DENSE_MODES.join(', ')}.`,
    );
  }
  return value as DenseMode;
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

/** `openRetriever` on the corpus and index the flags name; its notes go to stderr. */
export async function openRetriever(
  ctx: CliContext,
  options: {
    corpus?: string | undefined;
    mode: Mode;
    embedder?: string | undefined;
    /** `--dense-mode` (default auto). */
    denseMode?: DenseMode | undefined;
    /** `--recipes`: the recipes file of a RECIPER mode (default `recipesPathOf(dir)`). */
    recipes?: string | undefined;
  },
): Promise<OpenedIndex> {
  // No corpus is CORPUS_NOT_FOUND (ingest first), not INDEX_MISSING (whose fix, `index`, would
  // fail); the corpus itself is opened when first read, after the index is loaded.
  requireCorpus(corpusPath(ctx, options.corpus));
  let store: CorpusStore | null = null;
  const opened = () => {
    store ??= openCorpus(corpusPath(ctx, options.corpus));
    return store;
  };
  try {
    return await openRetrieverOf({
      indexDir: indexDirOf(ctx, options.corpus),
      // The change token first: an unchanged corpus is then known current from one row, without
      // its digests (14,050 papers: 0.1 s read, plus the index's paper files parsed to compare).
      corpus: {
        changeToken: () => opened().changeToken(),
        digests: () => opened().digests(),
        get: (id) => opened().get(id),
      },
      mode: options.mode,
      embedder: options.embedder ?? ctx.config().embedder,
      denseMode: options.denseMode,
      recipesPath: options.recipes ? resolve(ctx.io.cwd, options.recipes) : undefined,
      env: ctx.io.env,
      onNotice: (n) => ctx.io.err(`${n.level}: ${n.message}\n`),
      showPath: (path) => displayPath(ctx, path),
    });
  } finally {
    (store as CorpusStore | null)?.close();
  }
}

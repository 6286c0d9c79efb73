import { corpusPassages, indexedPassageText, runPassages } from '../../answer/index.js';
import { CitegeistError, papersInput } from '../../core/index.js';
import type { QaGridMode, QaGridSource } from '../../grade/index.js';
import type { BertScoreFlags } from '../bertscore-setup.js';
import type { CliContext } from '../context.js';
import type { LlmFlags } from '../llm-options.js';
import { openRetrievedRun } from '../retrieved-run.js';
import { type Mode, openRetriever, parseMode } from './retrieval-options.js';

/** The flags of `qa-grid`. */
export interface GridFlags extends BertScoreFlags, Omit<LlmFlags, 'model' | 'judge'> {
  dataset: string;
  references?: string;
  modes: string;
  models: string;
  baselineMode: string;
  k: number;
  metric?: string;
  stemmer: boolean;
  limit?: number;
  outDir: string;
  corpus?: string;
  embedder?: string;
  recipes?: string;
  retrieved?: string;
  seed: number;
}

/** The grid's retrievers (`--modes`, plus `retrieved` with --retrieved), its baseline among them, and its generators. */
export function gridModes(flags: Pick<GridFlags, 'modes' | 'retrieved' | 'baselineMode' | 'models'>) {
  const modes: (Mode | 'retrieved')[] = flags.modes.split(',').map((m) => parseMode(m.trim()));
  if (flags.retrieved) modes.push('retrieved');
  const baselineMode = parseMode(flags.baselineMode);
  if (!modes.includes(baselineMode as Mode | 'retrieved')) {
    throw new CitegeistError(
      'BAD_OPTION',
      `The baseline retriever ${baselineMode} is not among --modes ${modes.join(',')}.`,
      `Add ${baselineMode} to --modes, or choose --baseline-mode among them.`,
    );
  }
  const models = flags.models
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return { modes, baselineMode, models };
}

/** Whole-corpus context for one retrieval mode; records which index and embedder it used. */
export async function passageSource(
  ctx: CliContext,
  flags: Pick<GridFlags, 'corpus' | 'embedder' | 'recipes' | 'retrieved'>,
  mode: Mode,
  index: Record<string, unknown>,
): Promise<QaGridSource> {
  const opened = await openRetriever(ctx, {
    corpus: flags.corpus,
    mode,
    embedder: flags.embedder,
    recipes: flags.recipes,
  });
  index.dir ??= opened.dir;
  index.passages ??= opened.saved.passages.length;
  index.embedder ??= opened.saved.manifest.embedderSpec ?? null;
  const recipes = opened.recipes?.texts;
  if (opened.recipes) {
    const { file, model, runId, stale } = opened.recipes;
    index.recipes ??= {
      file,
      model,
      run_id: runId,
      recipes: opened.recipes.texts.size,
      left_out_stale: stale,
    };
  }
  const passage = indexedPassageText(opened.passages);
  const source = corpusPassages(opened.retriever, (id) => {
    const p = passage(id);
    if (p) return p;
    const docId = id.endsWith('#recipe') ? id.slice(0, -'#recipe'.length) : null;
    const recipe = docId ? recipes?.get(docId) : undefined;
    return recipe ? { text: recipe, label: `${docId} (recipe)` } : undefined;
  });
  // The run's manifest hashes what the answers can draw on: every indexed passage (and recipe).
  const texts = new Map<string, string | null>([...opened.passages].map(([id, p]) => [id, p.text]));
  for (const [docId, recipe] of recipes ?? []) texts.set(`${docId}#recipe`, recipe);
  return { source, passages: papersInput(texts, `index ${opened.dir}`) };
}

/** The context another engine's TREC run gives each row (`--retrieved`; topics = row ids). */
export function retrievedSource(ctx: CliContext, flags: GridFlags): QaGridSource {
  const retrieved = openRetrievedRun(ctx, flags.retrieved as string, flags.corpus);
  // The run's manifest hashes what the answers can draw on: every indexed passage.
  const texts = new Map<string, string | null>([...retrieved.passages].map(([id, p]) => [id, p.text]));
  return {
    source: runPassages(retrieved.retriever, indexedPassageText(retrieved.passages)),
    passages: papersInput(texts, retrieved.description),
  };
}

/** Each retriever of the grid, opened when its cells run (`index` records the index the modes used). */
export function gridSources(
  ctx: CliContext,
  flags: GridFlags,
  modes: readonly (Mode | 'retrieved')[],
  index: Record<string, unknown>,
): QaGridMode[] {
  return modes.map((mode) => ({
    mode,
    open: () => (mode === 'retrieved' ? retrievedSource(ctx, flags) : passageSource(ctx, flags, mode, index)),
  }));
}

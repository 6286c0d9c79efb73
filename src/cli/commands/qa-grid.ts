import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Answerer,
  AnswerPlanner,
  answerManifest,
  corpusPassages,
  ExtractiveAnswerer,
  estimateRunFile,
  LlmAnswerer,
  type PassageSource,
  runAnswers,
  runPassages,
} from '../../answer/index.js';
import { CitegeistError, type InputRef, papersInput } from '../../core/index.js';
import { loadDatasetStrict } from '../../formats/index.js';
import {
  type GridCell,
  type GridRow,
  parseQaMetrics,
  parseReferences,
  type QaMetricId,
  scoreAnswers,
  summarizeGrid,
} from '../../grade/index.js';
import { readTextFile, writeFileAtomic } from '../../io/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { formatScore, renderTable } from '../../text/index.js';
import { VERSION } from '../../version.js';
import { addBertScoreOptions, type BertScoreFlags, bertScoreSetup } from '../bertscore-setup.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmRuntime,
  resolveLlmSettings,
} from '../llm-options.js';
import { MODES, type Mode, openRetriever, parseMode, RECIPES_OPTION } from '../retrieval-setup.js';
import { openRetrievedRun, RETRIEVED_OPTION } from '../retrieved-run.js';
import { countOption, seedOption } from './option-parsers.js';
import { fileSha256 } from './qa-eval.js';
import { type GridEstimateCell, gridEstimate, renderGridEstimate } from './qa-grid-estimate.js';

interface GridFlags extends BertScoreFlags, Omit<LlmFlags, 'model' | 'judge'> {
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

interface SkippedCell {
  mode: string;
  reason: string;
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

export const registerQaGrid: RegisterCommand = (program, ctx) => {
  const command = program
    .command('qa-grid')
    .description(
      "RECIPER's downstream test: free-text answers from each retriever's context × each model, scored (ROUGE-L, BERTScore) against reference answers, compared with the paragraph-only baseline",
    )
    .requiredOption(
      '--dataset <file>',
      'questions (a citegeist dataset; QASPER rows carry their reference answers)',
    )
    .option('--references <file>', 'reference answers, if not the dataset (any layout qa-eval reads)')
    .option(
      '--modes <list>',
      `retrievers over the whole corpus: ${MODES.join(', ')}`,
      'bm25,dense,hybrid,reciper',
    )
    .option(
      '--models <list>',
      'generators: extractive (no LLM) and/or model strings (ollama:qwen2.5:0.5b, …)',
      'extractive',
    )
    .option(
      '--baseline-mode <mode>',
      'the paragraph-only baseline retriever the others are tested against',
      'dense',
    )
    .option('-k <n>', 'passages of context per question', countOption('-k'), 5)
    .option('--metric <list>', 'metrics (default: rougeL, plus bertscore with --bertscore-model)')
    .option('--stemmer', 'Porter stemming in ROUGE', false)
    .option('--limit <n>', 'only the first n questions', countOption('--limit'))
    .option('--embedder <spec>', 'embedder for dense modes (default: the one the index was built with)')
    .option(...RECIPES_OPTION)
    .option(RETRIEVED_OPTION[0], `${RETRIEVED_OPTION[1]}: one more grid row, "retrieved"`)
    .option('--seed <n>', 'bootstrap and randomization-test seed', seedOption('--seed'), 0)
    .requiredOption('--out-dir <dir>', 'runs, scores and grid.summary.json (runs resume if present)')
    .option(...CORPUS_OPTION);
  addLlmOptions(addBertScoreOptions(command), { model: false }).action((flags: GridFlags) =>
    runGrid(ctx, flags),
  );
};

async function runGrid(ctx: CliContext, flags: GridFlags): Promise<void> {
  const metrics = parseQaMetrics(
    (flags.metric ?? (flags.bertscoreModel ? 'rougeL,bertscore' : 'rougeL')).split(','),
  );
  const bert = bertScoreSetup(ctx, metrics, flags);
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
  const datasetPath = resolve(ctx.io.cwd, flags.dataset);
  const read = await loadDatasetStrict(datasetPath);
  for (const w of read.warnings) ctx.io.err(`warning: ${w}\n`);
  const rows = read.rows.slice(0, flags.limit ?? Number.MAX_SAFE_INTEGER);
  const datasetSha256 = fileSha256(datasetPath);
  const referencesPath = resolve(ctx.io.cwd, flags.references ?? flags.dataset);
  const refs = parseReferences(readTextFile(referencesPath, 'references file'), referencesPath);
  for (const e of refs.errors.slice(0, 10)) ctx.io.err(`skipped [INVALID_INPUT] ${e.where}: ${e.message}\n`);
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  const outDir = resolve(ctx.io.cwd, flags.outDir);
  if (!settings.dryRun) mkdirSync(outDir, { recursive: true });
  let runtime: LlmRuntime | undefined;
  const cells: GridCell[] = [];
  const estimates: GridEstimateCell[] = [];
  const skipped: SkippedCell[] = [];
  const index: Record<string, unknown> = {};
  try {
    for (const mode of modes) {
      const opened = await (mode === 'retrieved'
        ? Promise.resolve(retrievedSource(ctx, flags))
        : passageSource(ctx, flags, mode, index)
      ).catch((error: unknown) => {
        if (!(error instanceof CitegeistError) || error.code !== 'RECIPES_MISSING') throw error;
        skipped.push({ mode, reason: `${error.problem} ${error.fix}` });
        ctx.io.err(`${mode}: skipped — ${error.problem} ${error.fix}\n`);
        return null;
      });
      if (!opened) continue;
      const options = { k: flags.k, freeText: true, passages: opened.source };
      for (const model of models) {
        const base = join(outDir, `${slug(mode)}__${slug(model)}`);
        const manifestOf = (answerer: Pick<Answerer, 'id' | 'settings'>) =>
          answerManifest({
            answerer,
            dataset: { sha256: datasetSha256, path: flags.dataset, rows: rows.length },
            papers: opened.passages,
            version: VERSION,
          });
        if (settings.dryRun) {
          // Priced from the very prompts a run sends; no provider (so no key), no file written.
          const planner =
            model === 'extractive'
              ? new ExtractiveAnswerer(options)
              : new AnswerPlanner({ id: modelId(parseModelString(model)), contextWindow: null }, options);
          const manifest = manifestOf(planner);
          const estimate = await estimateRunFile({
            rows,
            answerer: planner,
            papers: () => null,
            prices: settings.prices,
            path: `${base}.jsonl`,
            manifest,
          });
          estimates.push({ mode, model: planner.id, label: manifest.label, ...estimate });
          continue;
        }
        if (model !== 'extractive') runtime ??= createLlmRuntime(settings, ctx.io.env);
        const answerer: Answerer =
          runtime && model !== 'extractive'
            ? new LlmAnswerer(runtime.provider(model), options)
            : new ExtractiveAnswerer(options);
        const run = await runAnswers(
          rows,
          answerer,
          async () => null,
          { path: `${base}.jsonl`, manifest: manifestOf(answerer) },
          {
            concurrency: model === 'extractive' ? 1 : settings.concurrency,
          },
        );
        const wanted = new Set(rows.map((r) => r.row_id));
        const scored = await scoreAnswers(
          run.rows.filter((r) => wanted.has(r.row_id)),
          refs.references,
          { metrics, stemmer: flags.stemmer, ...(bert ? { bertscore: bert.settings } : {}) },
        );
        writeFileAtomic(`${base}.scores.jsonl`, scored.rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
        cells.push({ mode, model: answerer.id, rows: scored.rows });
        ctx.io.err(
          `${mode} × ${answerer.id}: ${run.answered} answered, ${run.skipped} kept, ${run.failed} failed; ${scored.unknownRows.length} without references\n`,
        );
        if (run.failed > 0) ctx.setExitCode(1);
      }
    }
  } finally {
    runtime?.close();
  }
  if (settings.dryRun) {
    const estimate = gridEstimate(rows.length, estimates, skipped);
    ctx.io.out(ctx.globals().json ? `${JSON.stringify(estimate, null, 2)}\n` : renderGridEstimate(estimate));
    return;
  }
  const seed = flags.seed;
  const grid = summarizeGrid(cells, metrics, { baselineMode, seed });
  const summary = {
    tool: 'citegeist qa-grid',
    version: VERSION,
    created_at: new Date().toISOString(),
    settings: {
      modes,
      models,
      baseline_mode: baselineMode,
      k: flags.k,
      context: 'whole-corpus retrieval; --free-text answers (no citation contract)',
      metrics,
      stemmer: flags.stemmer,
      bertscore: bert?.provenance ?? null,
      limit: flags.limit ?? null,
      statistics: {
        ci: 'percentile bootstrap 95%, 10,000 resamples',
        test: 'paired sign-flip randomization, two-sided, 10,000 draws',
        seed,
      },
    },
    inputs: {
      dataset: { path: flags.dataset, sha256: fileSha256(datasetPath), rows: rows.length },
      references: {
        path: flags.references ?? flags.dataset,
        sha256: fileSha256(referencesPath),
        format: refs.format,
      },
      index,
    },
    skipped,
    grid,
  };
  writeFileAtomic(join(outDir, 'grid.summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  if (ctx.globals().json) ctx.io.out(`${JSON.stringify(summary, null, 2)}\n`);
  else
    ctx.io.out(`${renderGrid(grid, metrics)}\n\n${cells.length} cells → ${flags.outDir}/grid.summary.json\n`);
}

/** Whole-corpus context for one retrieval mode; records which index and embedder it used. */
async function passageSource(
  ctx: CliContext,
  flags: GridFlags,
  mode: Mode,
  index: Record<string, unknown>,
): Promise<{ source: PassageSource; passages: InputRef }> {
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
  const source = corpusPassages(opened.retriever, (id) => {
    const p = opened.passages.get(id);
    if (p) return { text: p.text, label: [p.title, ...p.sectionPath].filter(Boolean).join(' > ') };
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
function retrievedSource(ctx: CliContext, flags: GridFlags): { source: PassageSource; passages: InputRef } {
  const retrieved = openRetrievedRun(ctx, flags.retrieved as string, flags.corpus);
  const text = (id: string) => {
    const p = retrieved.passages.get(id);
    return p ? { text: p.text, label: [p.title, ...p.sectionPath].filter(Boolean).join(' > ') } : undefined;
  };
  // The run's manifest hashes what the answers can draw on: every indexed passage.
  const texts = new Map<string, string | null>([...retrieved.passages].map(([id, p]) => [id, p.text]));
  return {
    source: runPassages(retrieved.retriever, text),
    passages: papersInput(texts, retrieved.description),
  };
}

const signed = (x: number | null) => (x === null ? '' : `${x >= 0 ? '+' : ''}${x.toFixed(4)}`);
const pValue = (p: number | null) => (p === null ? '' : p < 0.001 ? '<0.001' : p.toFixed(3));

/** The table RECIPER reports: per model and retriever, each metric's mean [95% CI], Δ and p vs the baseline. */
export function renderGrid(grid: readonly GridRow[], metrics: readonly QaMetricId[]): string {
  const label = (m: QaMetricId) => (m === 'bertscore' ? 'BERTScore-F1' : m === 'rougeL' ? 'ROUGE-L' : m);
  const columns = [
    { header: 'model' },
    { header: 'retriever' },
    { header: 'n', align: 'right' as const },
    ...metrics.flatMap((m) => [
      { header: `${label(m)} [95% CI]` },
      { header: 'Δ', align: 'right' as const },
      { header: 'p', align: 'right' as const },
    ]),
  ];
  const rows = grid.map((g) => [
    g.model,
    g.baseline ? `${g.mode} (baseline)` : g.mode,
    String(g.stats[0]?.n ?? 0),
    ...g.stats.flatMap((s) => [
      `${formatScore(s.mean, 4)} [${formatScore(s.lower, 4)}, ${formatScore(s.upper, 4)}]`,
      signed(s.delta),
      pValue(s.p),
    ]),
  ]);
  return renderTable(columns, rows);
}

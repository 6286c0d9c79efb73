import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadDatasetStrict } from '../../formats/index.js';
import {
  estimateQaGrid,
  parseQaMetrics,
  parseReferences,
  qaGridSummary,
  runQaGrid,
} from '../../grade/index.js';
import { readTextFile, writeFileAtomic } from '../../io/index.js';
import { renderGrid } from '../../report/index.js';
import { addBertScoreOptions, bertScoreSetup } from '../bertscore-setup.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import { addLlmOptions, createLlmRuntime, type LlmRuntime, resolveLlmSettings } from '../llm-options.js';
import { RETRIEVED_OPTION } from '../retrieved-run.js';
import { countOption, seedOption } from '../setup/option-parsers.js';
import { gridEstimate, renderGridEstimate } from '../setup/qa-grid-estimate.js';
import { type GridFlags, gridModes, gridSources } from '../setup/qa-grid-sources.js';
import { MODES, RECIPES_OPTION } from '../setup/retrieval-options.js';
import { fileSha256 } from './qa-eval.js';

// The grid's table is the report stage's; `qa-grid` has always exported it.

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
  const { modes, baselineMode, models } = gridModes(flags);
  const datasetPath = resolve(ctx.io.cwd, flags.dataset);
  const read = await loadDatasetStrict(datasetPath);
  for (const w of read.warnings) ctx.io.err(`warning: ${w}\n`);
  const rows = read.rows.slice(0, flags.limit ?? Number.MAX_SAFE_INTEGER);
  const referencesPath = resolve(ctx.io.cwd, flags.references ?? flags.dataset);
  const refs = parseReferences(readTextFile(referencesPath, 'references file'), referencesPath);
  for (const e of refs.errors.slice(0, 10)) ctx.io.err(`skipped [INVALID_INPUT] ${e.where}: ${e.message}\n`);
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  const outDir = resolve(ctx.io.cwd, flags.outDir);
  if (!settings.dryRun) mkdirSync(outDir, { recursive: true });
  const index: Record<string, unknown> = {};
  const grid = {
    rows,
    dataset: { sha256: fileSha256(datasetPath), path: flags.dataset },
    modes: gridSources(ctx, flags, modes, index),
    models,
    k: flags.k,
    outDir,
    warn: (line: string) => ctx.io.err(`${line}\n`),
  };
  if (settings.dryRun) {
    const { cells, skipped } = await estimateQaGrid({ ...grid, prices: settings.prices });
    const estimate = gridEstimate(rows.length, cells, skipped);
    ctx.io.out(ctx.globals().json ? `${JSON.stringify(estimate, null, 2)}\n` : renderGridEstimate(estimate));
    return;
  }
  let runtime: LlmRuntime | undefined;
  const provider = (model: string) => {
    runtime ??= createLlmRuntime(settings, ctx.io.env);
    return runtime.provider(model);
  };
  const { cells, skipped, failed } = await runQaGrid({
    ...grid,
    references: refs.references,
    metrics,
    stemmer: flags.stemmer,
    ...(bert ? { bertscore: bert.settings } : {}),
    concurrency: settings.concurrency,
    provider,
  }).finally(() => runtime?.close());
  if (failed > 0) ctx.setExitCode(1);
  const summary = qaGridSummary(
    cells,
    {
      modes,
      models,
      baselineMode,
      k: flags.k,
      metrics,
      stemmer: flags.stemmer,
      bertscore: bert?.provenance ?? null,
      limit: flags.limit ?? null,
      seed: flags.seed,
    },
    {
      dataset: { path: flags.dataset, sha256: fileSha256(datasetPath), rows: rows.length },
      references: {
        path: flags.references ?? flags.dataset,
        sha256: fileSha256(referencesPath),
        format: refs.format,
      },
      index,
    },
    skipped,
  );
  writeFileAtomic(join(outDir, 'grid.summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  if (ctx.globals().json) ctx.io.out(`${JSON.stringify(summary, null, 2)}\n`);
  else
    ctx.io.out(
      `${renderGrid(summary.grid, metrics, summary.best)}\n\n${cells.length} cells → ${flags.outDir}/grid.summary.json\n`,
    );
}

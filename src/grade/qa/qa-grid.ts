import { join } from 'node:path';
import {
  type AnswerEstimate,
  type Answerer,
  AnswerPlanner,
  answerManifest,
  ExtractiveAnswerer,
  estimateRunFile,
  LlmAnswerer,
  type PassageSource,
  runAnswers,
} from '../../answer/index.js';
import { CitegeistError, type DatasetRow, type InputRef } from '../../core/index.js';
import { writeFileAtomic } from '../../io/index.js';
import { type LlmProvider, modelId, type PriceTable, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import { gridBest } from './grid-best.js';
import { type GridCell, summarizeGrid } from './grid-summary.js';
import type { ReferenceSet } from './references.js';
import { type BertScoreSettings, type QaMetricId, scoreAnswers } from './score-answers.js';

/** The context one retriever gives every question, and what the run's manifest hashes of it. */
export interface QaGridSource {
  source: PassageSource;
  passages: InputRef;
}

/** A retriever of the grid: its name and how its context is opened (RECIPES_MISSING skips it). */
export interface QaGridMode {
  mode: string;
  open: () => Promise<QaGridSource> | QaGridSource;
}

/** The cells of a grid: every retriever × every generator, over the same questions. */
export interface QaGridOptions {
  /** The questions (a dataset's rows) and the dataset's identity, for the runs' manifests. */
  rows: readonly DatasetRow[];
  dataset: { sha256: string; path: string };
  modes: readonly QaGridMode[];
  /** Generators: `extractive` (no LLM) and/or model strings. */
  models: readonly string[];
  /** Passages of context per question. */
  k: number;
  /** Runs (`<mode>__<model>.jsonl`, resumed if present) and scores are written here. */
  outDir: string;
  /** The skipped retrievers and per-cell outcomes, one line each (default: dropped). */
  warn?: (line: string) => void;
}

/** A retriever left out of the grid, and why. */
export interface SkippedMode {
  mode: string;
  reason: string;
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * Opens each retriever's context and calls `cell` for every generator over it; a retriever whose
 * recipes are missing is skipped (and said why), any other error stops the grid.
 */
async function eachCell(
  o: QaGridOptions,
  cell: (c: {
    mode: string;
    model: string;
    base: string;
    options: { k: number; freeText: true; passages: PassageSource };
    manifestOf: (a: Pick<Answerer, 'id' | 'settings'>) => ReturnType<typeof answerManifest>;
  }) => Promise<void>,
): Promise<SkippedMode[]> {
  const skipped: SkippedMode[] = [];
  for (const { mode, open } of o.modes) {
    const opened = await Promise.resolve()
      .then(open)
      .catch((error: unknown) => {
        if (!(error instanceof CitegeistError) || error.code !== 'RECIPES_MISSING') throw error;
        skipped.push({ mode, reason: `${error.problem} ${error.fix}` });
        o.warn?.(`${mode}: skipped — ${error.problem} ${error.fix}`);
        return null;
      });
    if (!opened) continue;
    const options = { k: o.k, freeText: true as const, passages: opened.source };
    for (const model of o.models) {
      const manifestOf = (answerer: Pick<Answerer, 'id' | 'settings'>) =>
        answerManifest({
          answerer,
          dataset: { ...o.dataset, rows: o.rows.length },
          papers: opened.passages,
          version: VERSION,
        });
      await cell({ mode, model, base: join(o.outDir, `${slug(mode)}__${slug(model)}`), options, manifestOf });
    }
  }
  return skipped;
}

/** One cell of a grid's dry run: a generator over one retriever's context (`estimateRunFile`). */
export interface QaGridEstimateCell extends AnswerEstimate {
  mode: string;
  model: string;
  label: string;
  kept: number;
  callsModel: boolean;
}

/**
 * A grid's dry run: each cell priced from the very prompts a run sends, the rows its run file
 * already holds left out; no provider (so no key), nothing written.
 */
export async function estimateQaGrid(
  o: QaGridOptions & { prices: PriceTable },
): Promise<{ cells: QaGridEstimateCell[]; skipped: SkippedMode[] }> {
  const cells: QaGridEstimateCell[] = [];
  const skipped = await eachCell(o, async ({ mode, model, base, options, manifestOf }) => {
    const planner =
      model === 'extractive'
        ? new ExtractiveAnswerer(options)
        : new AnswerPlanner({ id: modelId(parseModelString(model)), contextWindow: null }, options);
    const manifest = manifestOf(planner);
    const estimate = await estimateRunFile({
      rows: o.rows,
      answerer: planner,
      papers: () => null,
      prices: o.prices,
      path: `${base}.jsonl`,
      manifest,
    });
    cells.push({ mode, model: planner.id, label: manifest.label, ...estimate });
  });
  return { cells, skipped };
}

/**
 * RECIPER's downstream test, run: free-text answers from each retriever's context by each
 * generator (runs resumed), each scored against the reference answers (`<cell>.scores.jsonl`).
 * `failed` counts the rows whose answering failed, over every cell.
 */
export async function runQaGrid(
  o: QaGridOptions & {
    references: ReferenceSet['references'];
    metrics: readonly QaMetricId[];
    stemmer: boolean;
    bertscore?: BertScoreSettings;
    /** Calls in flight for a model generator (the extractive one answers one row at a time). */
    concurrency: number;
    /** The provider of a model generator (called once per cell; not for `extractive`). */
    provider: (model: string) => LlmProvider;
  },
): Promise<{ cells: GridCell[]; skipped: SkippedMode[]; failed: number }> {
  const cells: GridCell[] = [];
  let failed = 0;
  const wanted = new Set(o.rows.map((r) => r.row_id));
  const skipped = await eachCell(o, async ({ mode, model, base, options, manifestOf }) => {
    const answerer: Answerer =
      model !== 'extractive' ? new LlmAnswerer(o.provider(model), options) : new ExtractiveAnswerer(options);
    const run = await runAnswers(
      o.rows,
      answerer,
      async () => null,
      { path: `${base}.jsonl`, manifest: manifestOf(answerer) },
      { concurrency: model === 'extractive' ? 1 : o.concurrency },
    );
    const scored = await scoreAnswers(
      run.rows.filter((r) => wanted.has(r.row_id)),
      o.references,
      { metrics: [...o.metrics], stemmer: o.stemmer, ...(o.bertscore ? { bertscore: o.bertscore } : {}) },
    );
    writeFileAtomic(`${base}.scores.jsonl`, scored.rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    cells.push({ mode, model: answerer.id, rows: scored.rows });
    o.warn?.(
      `${mode} × ${answerer.id}: ${run.answered} answered, ${run.skipped} kept, ${run.failed} failed; ${scored.unknownRows.length} without references`,
    );
    failed += run.failed;
  });
  return { cells, skipped, failed };
}

/** What a grid's summary records of how it was run (`qaGridSummary`). */
export interface QaGridSettings {
  modes: readonly string[];
  models: readonly string[];
  baselineMode: string;
  k: number;
  metrics: readonly QaMetricId[];
  stemmer: boolean;
  /** BERTScore's model, layer and baseline, or null without it. */
  bertscore: unknown;
  limit: number | null;
  seed: number;
}

/**
 * A grid's summary (`grid.summary.json`): its settings and inputs, the retrievers skipped, the
 * table against the baseline retriever (`summarizeGrid`), and the best cell per metric with every
 * pair tested (`gridBest`).
 */
export function qaGridSummary(
  cells: GridCell[],
  s: QaGridSettings,
  inputs: { dataset: unknown; references: unknown; index: unknown },
  skipped: SkippedMode[],
) {
  const grid = summarizeGrid(cells, [...s.metrics], { baselineMode: s.baselineMode, seed: s.seed });
  // The best cell per metric and those not significantly worse (every pair, Holm over the grid).
  const { table: pairwise, best } = gridBest(cells, [...s.metrics], { seed: s.seed });
  return {
    tool: 'citegeist qa-grid',
    version: VERSION,
    created_at: new Date().toISOString(),
    settings: {
      modes: s.modes,
      models: s.models,
      baseline_mode: s.baselineMode,
      k: s.k,
      context: 'whole-corpus retrieval; --free-text answers (no citation contract)',
      metrics: s.metrics,
      stemmer: s.stemmer,
      bertscore: s.bertscore,
      limit: s.limit,
      statistics: {
        ci: 'percentile bootstrap 95%, 10,000 resamples',
        test: 'paired sign-flip randomization, two-sided, 10,000 draws',
        seed: s.seed,
      },
    },
    inputs,
    skipped,
    grid,
    best,
    pairwise,
  };
}

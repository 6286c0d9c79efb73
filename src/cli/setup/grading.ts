import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { CitegeistError, ERROR_CODES } from '../../core/index.js';
import {
  type AlternativeMatchMode,
  AnchoredRubricJudge,
  estimateJudging,
  type GradeRow,
  type GradeRunOptions,
  type GradesSummary,
  type GradesSummaryFigures,
  gradeRun,
  type OpenedGrading,
  openGrading,
  renderEvidenceTally,
  summarizeGrades,
} from '../../grade/index.js';
import { partialLabel } from '../../io/index.js';
import { circularityWarnings, modelId, parseModelString } from '../../llm/index.js';
import { renderBreakdown, renderLeaderboard } from '../../report/index.js';
import { checkSource } from '../../store/index.js';
import type { CliContext } from '../context.js';
import {
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  type RunName,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress, type ModelCall } from '../progress.js';
import { paperSourceOf } from './paper-source.js';

export interface GradeOptions extends Omit<LlmFlags, 'model'> {
  dataset: string;
  papers?: string;
  corpus?: string;
  match: AlternativeMatchMode;
  /** --quote-mode; when absent, `quoteMode` from the config file, else researchqa. */
  quoteMode?: 'researchqa' | 'strict';
  /** The model name for runs that record none (not an LLM: grading calls only the judge). */
  model?: string;
  seed: number;
  /** Threads for the deterministic metrics (default: the machine's available parallelism). */
  threads?: number;
  label?: string;
  /** false with --no-check: skip the dataset check. */
  check?: boolean;
  /** Count the rubric judge's unverified support as support (`--trust-unlocated-evidence`). */
  trustUnlocatedEvidence?: boolean;
  /** Grade run files still being written (`--allow-partial`), marking the output partial. */
  allowPartial?: boolean;
}

/** The grading opened (`openGrading`) with the command's model settings. */
export interface Prepared extends OpenedGrading {
  settings: LlmSettings;
  /** The rubric judge counts its unverified support as support (`--trust-unlocated-evidence`). */
  trustUnlocatedEvidence: boolean;
}

/**
 * Reads the dataset and the runs and loads the papers: those the dataset names when `allPapers`
 * (so the grades manifest hashes the same papers however far the run got) or when the dataset is
 * checked, else those the runs need. Dataset and runs are indexed, not held (see
 * `loadDatasetIndex`, `indexRun`), and the papers are read again when their rows are graded.
 */
export async function prepare(
  ctx: CliContext,
  runFiles: string[],
  opts: GradeOptions,
  allPapers: boolean,
): Promise<Prepared> {
  const quoteMode = opts.quoteMode ?? ctx.config().quoteMode ?? 'researchqa';
  checkEnum('--match', opts.match, ['researchqa', 'span']);
  checkEnum('--quote-mode', quoteMode, ['researchqa', 'strict']);
  const papers = paperSourceOf(ctx, opts);
  checkSource(papers);
  const inputs = [opts.dataset, ...runFiles].map((f) => resolve(ctx.io.cwd, f));
  if (inputs.reduce((n, f) => n + (statSync(f, { throwIfNoEntry: false })?.size ?? 0), 0) >= LARGE_INPUT) {
    boundHeapGrowth();
  }
  const { model, threads, label: _label, check, trustUnlocatedEvidence, allowPartial, ...flags } = opts;
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  const opened = await openGrading({
    dataset: opts.dataset,
    runs: runFiles,
    papers,
    cwd: ctx.io.cwd,
    match: opts.match,
    quoteMode,
    ...(model === undefined ? {} : { model }),
    ...(threads === undefined ? {} : { threads }),
    check: check !== false,
    allowPartial: allowPartial === true,
    allPapers,
    // A dry run writes nothing, not even the papers cache or the kept dataset check; nor does a
    // step of `citegeist replay` (CITEGEIST_PAPERS_CACHE=off): it reads each paper once, and
    // writing a cache no later command reads was a fifth of its time.
    writeCaches: !settings.dryRun && ctx.io.env.CITEGEIST_PAPERS_CACHE !== 'off',
    warn: (line) => ctx.io.err(`${line}\n`),
  });
  if (opened.runs.some((run) => run.errors.length > 0)) ctx.setExitCode(1);
  return { ...opened, settings, trustUnlocatedEvidence: trustUnlocatedEvidence === true };
}

/** Subscribes a listener to every model call the judge makes (its tokens and cost, for progress). */
export type OnJudgeCall = (listener: (call: ModelCall) => void) => void;

/**
 * Builds the run's judge (and warns when judge and answerer share a model family), or none; `work`
 * also gets a way to watch the judge's calls. `run` names the grading's calls on a queue (`--queue`).
 */
export async function withJudge<T>(
  ctx: CliContext,
  p: Prepared,
  work: (judge: AnchoredRubricJudge | undefined, onCall?: OnJudgeCall) => Promise<T>,
  run?: RunName,
): Promise<T> {
  if (!p.settings.judge) return work(undefined);
  const runtime = createLlmRuntime(p.settings, ctx.io.env);
  try {
    const judge = new AnchoredRubricJudge(runtime.provider(p.settings.judge), {
      trustUnlocatedEvidence: p.trustUnlocatedEvidence,
    });
    for (const w of circularityWarnings(
      [judge],
      p.runs.flatMap((r) => r.models),
    ))
      ctx.io.err(`warning: ${w}\n`);
    if (run) await runtime.useRun(run);
    return await work(judge, (listener) => runtime.onCall(listener));
  } finally {
    runtime.close();
  }
}

/** Grades run files against a dataset in memory (for `leaderboard`): rows carry their run's label. */
export async function gradeRunFiles(
  ctx: CliContext,
  runFiles: string[],
  opts: GradeOptions,
): Promise<GradeRow[]> {
  const p = await prepare(ctx, runFiles, opts, false);
  try {
    const partial = runFiles.map((f) => p.partial.some((x) => x.path === resolve(ctx.io.cwd, f)));
    return await withJudge(ctx, p, (judge, onCall) => gradeAll(ctx, p, partial, judge, onCall));
  } finally {
    p.close();
  }
}

/**
 * Grading a large run allocates far more than it keeps (each paper's rows are read, scored and
 * dropped), and V8 lets the heap grow to about four times what survives a collection before the
 * next one: for 50,000 rows, ~450 MB of heap for ~70 MB of live data. Growing it by half instead
 * keeps the whole process near 300 MB for about a tenth more CPU time. `--heap-growing-percent` is
 * V8's own flag, read at each collection; it is set (for this process) when the dataset and run
 * files hold at least `LARGE_INPUT` bytes, before they are read.
 */
function boundHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

const LARGE_INPUT = 32 << 20;

/**
 * `leaderboard --dry-run`: the judge calls grading the run files in memory would make, per run and
 * in total (the citation metrics are computed locally and cost nothing); nothing is called.
 */
export async function printLeaderboardEstimate(
  ctx: CliContext,
  runFiles: string[],
  opts: GradeOptions,
): Promise<void> {
  const p = await prepare(ctx, runFiles, opts, false);
  try {
    printEstimate(ctx, runFiles, p);
  } finally {
    p.close();
  }
}

function printEstimate(ctx: CliContext, runFiles: string[], p: Prepared): void {
  const judge = p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null;
  const runs = p.runs.map((run, i) => ({
    file: runFiles[i] ?? '',
    label: run.manifest?.label ?? run.models.join(', '),
    ...(judge
      ? estimateJudging(p.dataset, run.rows, null, judge, p.settings.prices)
      : { rows: run.rows.length, kept: 0, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }),
  }));
  const sum = (f: (r: (typeof runs)[number]) => number) => runs.reduce((s, r) => s + f(r), 0);
  const totals = {
    rows: sum((r) => r.rows),
    calls: sum((r) => r.calls),
    inputTokens: sum((r) => r.inputTokens),
    outputTokens: sum((r) => r.outputTokens),
    costUsd: runs.some((r) => r.costUsd === null) ? null : sum((r) => r.costUsd ?? 0),
  };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify({ dry_run: true, judge, runs, ...totals }, null, 2)}\n`);
    return;
  }
  if (!judge) {
    ctx.io.out('dry run: no judge, so no model calls (the citation metrics are computed locally)\n');
    return;
  }
  const cost = (c: number | null) => (c === null ? 'no price for this model' : `~$${c.toFixed(4)}`);
  ctx.io.out(
    `dry run, nothing called or written: ${totals.rows} rows of ${runs.length} run file(s) to grade; judge ${judge}: ${totals.calls} calls, ~${totals.inputTokens} input + ~${totals.outputTokens} output tokens, ${cost(totals.costUsd)}\n` +
      runs
        .map((r) => `  ${r.file} ("${r.label}"): ${r.rows} rows, ${r.calls} calls, ${cost(r.costUsd)}\n`)
        .join(''),
  );
}

/** Runs of at least this many rows show progress while their citation metrics are computed. */
const PROGRESS_ROWS = 5000;

async function gradeAll(
  ctx: CliContext,
  p: Prepared,
  /** Per run: read while still being written (--allow-partial), so its label says "(partial)". */
  partial: boolean[],
  judge: AnchoredRubricJudge | undefined,
  onCall?: OnJudgeCall,
): Promise<GradeRow[]> {
  const all: GradeRow[] = [];
  for (const [i, run] of p.runs.entries()) {
    const result = await withProgress(
      ctx,
      run.rows.length,
      judge,
      (options) =>
        gradeRun(p.dataset, run.rows, p.grading.paperText, { ...gradeOptions(p, judge), ...options }),
      onCall,
    );
    const label = run.manifest?.label ?? null;
    for (const g of result.grades) g.label = partial[i] ? partialLabel(label, g.model) : label;
    reportOutcome(ctx, run.models, result);
    all.push(...result.grades);
  }
  return all;
}

export function gradeOptions(p: Prepared, judge: AnchoredRubricJudge | undefined): GradeRunOptions {
  const { paperText: _paperText, ...grading } = p.grading;
  return { ...grading, ...(judge ? { judge } : {}), concurrency: p.settings.concurrency };
}

/**
 * Runs a grading with a progress bar: for the judge (with the tokens and cost of its calls, fed by
 * `onCall`), and for runs large enough to take seconds without it (about 6 s for 50,000 rows on
 * two cores); small runs grade silently.
 */
export function withProgress<T>(
  ctx: CliContext,
  rows: number,
  judge: AnchoredRubricJudge | undefined,
  work: (options: Pick<GradeRunOptions, 'onRow'>) => Promise<T>,
  onCall?: OnJudgeCall,
): Promise<T> {
  const progress = judge
    ? createLazyProgress({ io: ctx.io, label: 'judged' })
    : rows >= PROGRESS_ROWS
      ? createLazyProgress({ io: ctx.io, label: 'graded' })
      : null;
  if (!progress) return work({});
  onCall?.((call) => progress.call(call));
  return work({
    onRow: (g: GradeRow, _done: number, total: number) =>
      progress.tick({ ok: judge ? g.status.factual_accuracy !== 'failed' : !g.answer_failed }, total),
  }).finally(() => progress.stop());
}

export function reportOutcome(
  ctx: CliContext,
  models: string[],
  result: { unknownRows: string[]; missingRows: string[]; judgeFailures: number; judgeCalls: number },
): void {
  if (result.unknownRows.length > 0) {
    // The rows are left out, the others graded; the exit code and its code say so.
    ctx.io.err(
      `error [INVALID_INPUT]: ${result.unknownRows.length} run row(s) are not in the dataset and were not graded: ${result.unknownRows.slice(0, 5).join(', ')}\n  fix: Grade the run against the dataset it answered (--dataset), or remove those rows from the run.\n`,
    );
    ctx.setExitCode(1);
  }
  if (result.missingRows.length > 0) {
    ctx.io.err(
      `${models.join(', ')}: ${result.missingRows.length} dataset row(s) have no answer in the run\n`,
    );
  }
  if (result.judgeFailures > 0) {
    // A judge failure is a failed row, as a failed answer is in `answer`: the exit code says so.
    ctx.setExitCode(1);
    ctx.io.err(
      result.judgeFailures >= result.judgeCalls
        ? `error [JUDGE_FAILED]: every one of the ${result.judgeFailures} judge call(s) failed (recorded as failed, not 0)\n  fix: ${ERROR_CODES.JUDGE_FAILED.fix}\n`
        : `${result.judgeFailures} judge failure(s) (recorded as failed, not 0)\n`,
    );
  }
}

function checkEnum(flag: string, value: string, allowed: string[]): void {
  if (!allowed.includes(value)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `${flag} ${value} is not one of ${allowed.join(', ')}.`,
      `Use ${flag} ${allowed[0]}.`,
    );
  }
}

/** Prints the leaderboard (or its JSON) for grades rows, or their summary built as they were graded. */
export function printSummary(
  ctx: CliContext,
  grades: GradeRow[] | GradesSummary,
  seed: number,
  extra: { json: Record<string, unknown>; text: string } = { json: {}, text: '' },
): GradesSummaryFigures {
  const { figures, evidence, trusted } = summarizeGrades(grades, seed);
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify({ ...figures, ...extra.json }, null, 2)}\n`);
  } else {
    ctx.io.out(renderLeaderboard(figures.models, figures.spreads));
    ctx.io.out(`\n${renderBreakdown(figures.models, 'byType')}`);
    const lines = renderEvidenceTally(evidence, trusted, {
      what: 'claims counted consistent with the expected answer',
      where: 'the answer or the expected answer',
    });
    for (const line of lines) ctx.io.out(`\nrubric judge ${line}\n`);
    ctx.io.out(extra.text);
  }
  return figures;
}

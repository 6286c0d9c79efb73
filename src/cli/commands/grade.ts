import { resolve } from 'node:path';
import { CitegeistError, type DatasetRow, ERROR_CODES } from '../../core/index.js';
import {
  type AlternativeMatchMode,
  AnchoredRubricJudge,
  aggregateGrades,
  type GradeRow,
  type GradeRunOptions,
  gradeRun,
  readRun,
  renderEvidenceTally,
  spreads,
  tallyRubricEvidence,
} from '../../grade/index.js';
import { circularityWarnings } from '../../llm/index.js';
import { renderBreakdown, renderLeaderboard } from '../../report/index.js';
import type { CliContext } from '../context.js';
import {
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  type RunName,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress, type ModelCall } from '../progress.js';
import { readCheckedDataset, warnMissingFields } from './dataset-preflight.js';
import { loadPaperTexts, paperSource, paperSourceOf } from './paper-source.js';

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
}

/** The dataset, runs, paper texts and grading settings one grading command works from. */
export interface Prepared {
  dataset: DatasetRow[];
  runs: ReturnType<typeof readRun>[];
  grading: Grading;
  settings: LlmSettings;
  quoteMode: 'researchqa' | 'strict';
  /** Every paper the dataset names (null: not found), for the grades manifest. */
  texts: Map<string, string | null>;
  /**
   * Dataset and run rows read without a field that changes their scores (scored as an empty list),
   * by field, for the summary's `missing_fields`.
   */
  missingFields: Record<string, string[]>;
  /** The rubric judge counts its unverified support as support (`--trust-unlocated-evidence`). */
  trustUnlocatedEvidence: boolean;
}

/**
 * Reads the dataset and the runs and loads the papers: those the dataset names when `allPapers`
 * (so the grades manifest hashes the same papers however far the run got), else those the runs need.
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
  // One paper source for the dataset check and the grading: each paper is read once.
  const source = paperSource(paperSourceOf(ctx, opts), ctx.io.cwd);
  const read = await readCheckedDataset(ctx, resolve(ctx.io.cwd, opts.dataset), source, opts.check);
  const dataset = read.rows;
  const missingFields: Record<string, string[]> = {};
  warnMissingFields(ctx, 'dataset', read.missingFields, missingFields);
  const runs = runFiles.map((f) => {
    const run = readRun(resolve(ctx.io.cwd, f), opts.model ? { model: opts.model } : {});
    if (run.rows.length === 0) {
      throw new CitegeistError(
        'NO_ROWS',
        `The run file ${f} holds no run rows${run.errors.length > 0 ? ` (${run.errors.length} line(s) could not be read, e.g. ${run.errors[0]?.where}: ${run.errors[0]?.message})` : ''}.`,
        'Give the JSONL written by `citegeist answer`, or a published results file.',
      );
    }
    for (const e of run.errors.slice(0, 10)) ctx.io.err(`skipped [INVALID_INPUT] ${e.where}: ${e.message}\n`);
    if (run.errors.length > 0) ctx.setExitCode(1);
    warnMissingFields(ctx, 'run', run.missingFields, missingFields);
    return run;
  });
  const neededIds = new Set(runs.flatMap((r) => r.rows.map((x) => x.row_id)));
  const paperIds = dataset.filter((r) => allPapers || neededIds.has(r.row_id)).map((r) => r.paper_id);
  const { texts, missing } = await loadPaperTexts(paperIds, source);
  if (missing.length > 0) {
    ctx.io.err(
      `${missing.length} paper(s) not found (their citation accuracy is "failed"): ${missing.slice(0, 5).join(', ')}\n`,
    );
  }
  const grading: Grading = {
    paperText: (id) => texts.get(id) ?? null,
    match: opts.match,
    quoteMode,
    ...(opts.threads === undefined ? {} : { threads: opts.threads }),
    onWorkerFailure: (message) => ctx.io.err(`warning: ${message}\n`),
  };
  const {
    model: _runModel,
    threads: _threads,
    label: _label,
    check: _check,
    trustUnlocatedEvidence,
    ...flags
  } = opts;
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  const all = new Map<string, string | null>(missing.map((id) => [id, null]));
  for (const [id, text] of texts) all.set(id, text);
  return {
    dataset,
    runs,
    grading,
    settings,
    quoteMode,
    texts: all,
    missingFields,
    trustUnlocatedEvidence: trustUnlocatedEvidence === true,
  };
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
  if (p.settings.dryRun) {
    throw new CitegeistError(
      'DRY_RUN_UNSUPPORTED',
      '`leaderboard --dry-run` has nothing to estimate: grade the runs first.',
      'Estimate with `citegeist grade --dry-run --judge …`, or drop --dry-run.',
    );
  }
  return withJudge(ctx, p, (judge, onCall) => gradeAll(ctx, p, judge, onCall));
}

/** Runs of at least this many rows show progress while their citation metrics are computed. */
const PROGRESS_ROWS = 5000;

/** How the deterministic metrics are computed (shared by every run graded in one command). */
interface Grading extends Omit<GradeRunOptions, 'judge' | 'concurrency' | 'onRow' | 'signal'> {
  paperText: (paperId: string) => string | null;
}

async function gradeAll(
  ctx: CliContext,
  p: Prepared,
  judge: AnchoredRubricJudge | undefined,
  onCall?: OnJudgeCall,
): Promise<GradeRow[]> {
  const all: GradeRow[] = [];
  for (const run of p.runs) {
    const result = await withProgress(
      ctx,
      run.rows.length,
      judge,
      (options) =>
        gradeRun(p.dataset, run.rows, p.grading.paperText, { ...gradeOptions(p, judge), ...options }),
      onCall,
    );
    for (const g of result.grades) g.label = run.manifest?.label ?? null;
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
    ctx.io.err(
      `${result.unknownRows.length} run row(s) are not in the dataset: ${result.unknownRows.slice(0, 5).join(', ')}\n`,
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

/** Prints the leaderboard (or its JSON) for grades rows. */
export function printSummary(ctx: CliContext, grades: GradeRow[], seed: number): unknown {
  const models = aggregateGrades(grades, { seed });
  const spread = spreads(models);
  // The rubric judge's claims of support that could not be shown, per judge model.
  const evidence = tallyRubricEvidence(grades);
  const judgeEvidence = evidence.length > 0 ? { judge_evidence: evidence } : {};
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify({ models, spreads: spread, ...judgeEvidence }, null, 2)}\n`);
  } else {
    ctx.io.out(renderLeaderboard(models, spread));
    ctx.io.out(`\n${renderBreakdown(models, 'byType')}`);
    const trusted = grades.some((g) => g.judge_grounding?.trust_unlocated_evidence === true);
    const lines = renderEvidenceTally(evidence, trusted, {
      what: 'claims counted consistent with the expected answer',
      where: 'the answer or the expected answer',
    });
    for (const line of lines) ctx.io.out(`\nrubric judge ${line}\n`);
  }
  return { models, spreads: spread, ...judgeEvidence };
}

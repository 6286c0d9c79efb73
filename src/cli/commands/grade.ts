import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  CitegeistError,
  type DatasetRow,
  papersInput,
  type RunManifest,
  sha256Hex,
  writeFileAtomic,
} from '../../core/index.js';
import { readDatasetStrict } from '../../generate/index.js';
import {
  type AlternativeMatchMode,
  AnchoredRubricJudge,
  aggregateGrades,
  estimateJudging,
  type GradeRow,
  type GradeRunOptions,
  gradeRun,
  gradeRunToFile,
  gradesManifest,
  readRun,
  spreads,
} from '../../grade/index.js';
import { circularityWarnings, modelId, parseModelString } from '../../llm/index.js';
import { renderBreakdown, renderLeaderboard } from '../../report/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { parseIntOption } from './option-parsers.js';
import { addPaperSourceOptions, describeSource, loadPaperTexts, paperSourceOf } from './paper-source.js';

export interface GradeOptions extends Omit<LlmFlags, 'model'> {
  dataset: string;
  papers?: string;
  corpus?: string;
  match: AlternativeMatchMode;
  /** --quote-mode; when absent, `quoteMode` from the config file, else researchqa. */
  quoteMode?: 'researchqa' | 'strict';
  /** The model name for runs that record none (not an LLM: grading calls only the judge). */
  model?: string;
  seed: string;
  /** Threads for the deterministic metrics (default: the machine's available parallelism). */
  threads?: number;
  label?: string;
}

/** The dataset, runs, paper texts and grading settings one grading command works from. */
interface Prepared {
  dataset: DatasetRow[];
  runs: ReturnType<typeof readRun>[];
  grading: Grading;
  settings: LlmSettings;
  quoteMode: 'researchqa' | 'strict';
  /** Every paper the dataset names (null: not found), for the grades manifest. */
  texts: Map<string, string | null>;
}

/**
 * Reads the dataset and the runs and loads the papers: those the dataset names when `allPapers`
 * (so the grades manifest hashes the same papers however far the run got), else those the runs need.
 */
async function prepare(
  ctx: CliContext,
  runFiles: string[],
  opts: GradeOptions,
  allPapers: boolean,
): Promise<Prepared> {
  const quoteMode = opts.quoteMode ?? ctx.config().quoteMode ?? 'researchqa';
  checkEnum('--match', opts.match, ['researchqa', 'span']);
  checkEnum('--quote-mode', quoteMode, ['researchqa', 'strict']);
  const dataset = readDatasetStrict(resolve(ctx.io.cwd, opts.dataset));
  const runs = runFiles.map((f) => {
    const run = readRun(resolve(ctx.io.cwd, f), opts.model ? { model: opts.model } : {});
    for (const e of run.errors.slice(0, 10)) ctx.io.err(`skipped ${e.where}: ${e.message}\n`);
    if (run.errors.length > 0) ctx.setExitCode(1);
    return run;
  });
  const neededIds = new Set(runs.flatMap((r) => r.rows.map((x) => x.row_id)));
  const paperIds = dataset.filter((r) => allPapers || neededIds.has(r.row_id)).map((r) => r.paper_id);
  const { texts, missing } = await loadPaperTexts(paperIds, paperSourceOf(ctx, opts), ctx.io.cwd);
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
  const { model: _runModel, threads: _threads, label: _label, ...flags } = opts;
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  const all = new Map<string, string | null>(missing.map((id) => [id, null]));
  for (const [id, text] of texts) all.set(id, text);
  return { dataset, runs, grading, settings, quoteMode, texts: all };
}

/** Builds the run's judge (and warns when judge and answerer share a model family), or none. */
function withJudge<T>(
  ctx: CliContext,
  p: Prepared,
  work: (judge: AnchoredRubricJudge | undefined) => Promise<T>,
): Promise<T> {
  if (!p.settings.judge) return work(undefined);
  const runtime = createLlmRuntime(p.settings, ctx.io.env);
  const judge = new AnchoredRubricJudge(runtime.provider(p.settings.judge));
  for (const w of circularityWarnings(
    [judge],
    p.runs.flatMap((r) => r.models),
  ))
    ctx.io.err(`warning: ${w}\n`);
  return work(judge).finally(() => runtime.close());
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
  return withJudge(ctx, p, (judge) => gradeAll(ctx, p, judge));
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
): Promise<GradeRow[]> {
  const all: GradeRow[] = [];
  for (const run of p.runs) {
    const result = await withProgress(ctx, run.rows.length, judge, (options) =>
      gradeRun(p.dataset, run.rows, p.grading.paperText, { ...gradeOptions(p, judge), ...options }),
    );
    for (const g of result.grades) g.label = run.manifest?.label ?? null;
    reportOutcome(ctx, run.models, result);
    all.push(...result.grades);
  }
  return all;
}

function gradeOptions(p: Prepared, judge: AnchoredRubricJudge | undefined): GradeRunOptions {
  const { paperText: _paperText, ...grading } = p.grading;
  return { ...grading, ...(judge ? { judge } : {}), concurrency: p.settings.concurrency };
}

/**
 * Runs a grading with a progress bar: for the judge, and for runs large enough to take seconds
 * without it (about 6 s for 50,000 rows on two cores); small runs grade silently.
 */
function withProgress<T>(
  ctx: CliContext,
  rows: number,
  judge: AnchoredRubricJudge | undefined,
  work: (options: Pick<GradeRunOptions, 'onRow'>) => Promise<T>,
): Promise<T> {
  const progress = judge
    ? createLazyProgress({ io: ctx.io, label: 'judged' })
    : rows >= PROGRESS_ROWS
      ? createLazyProgress({ io: ctx.io, label: 'graded', tokens: false })
      : null;
  if (!progress) return work({});
  return work({
    onRow: (g: GradeRow, _done: number, total: number) =>
      progress.tick({ ok: judge ? g.status.factual_accuracy !== 'failed' : !g.answer_failed }, total),
  }).finally(() => progress.stop());
}

function reportOutcome(
  ctx: CliContext,
  models: string[],
  result: { unknownRows: string[]; missingRows: string[]; judgeFailures: number },
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
  if (result.judgeFailures > 0)
    ctx.io.err(`${result.judgeFailures} judge failure(s) (recorded as failed, not 0)\n`);
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
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify({ models, spreads: spread }, null, 2)}\n`);
  } else {
    ctx.io.out(renderLeaderboard(models, spread));
    ctx.io.out(`\n${renderBreakdown(models, 'byType')}`);
  }
  return { models, spreads: spread };
}

/** Grades one run into a grades file (rows appended as they complete, resumable), then the summary. */
async function gradeToFile(
  ctx: CliContext,
  opts: GradeOptions & { run: string; out: string },
): Promise<void> {
  const p = await prepare(ctx, [opts.run], opts, true);
  const run = p.runs[0]!;
  const out = resolve(ctx.io.cwd, opts.out);
  const manifest = gradesManifest({
    runLabel: run.manifest?.label ?? run.models.join(', '),
    label: opts.label,
    settings: {
      match: opts.match,
      quoteMode: p.quoteMode,
      judge: p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null,
    },
    dataset: {
      sha256: sha256Hex(readFileSync(resolve(ctx.io.cwd, opts.dataset))),
      path: opts.dataset,
      rows: p.dataset.length,
    },
    papers: papersInput(p.texts, describeSource(paperSourceOf(ctx, opts))),
    run: runInput(run.manifest, resolve(ctx.io.cwd, opts.run), opts.run),
    version: VERSION,
  });
  if (p.settings.dryRun) return printJudgeEstimate(ctx, p, { path: out, manifest });
  const result = await withJudge(ctx, p, (judge) =>
    withProgress(ctx, run.rows.length, judge, (options) =>
      gradeRunToFile(
        p.dataset,
        run.rows,
        p.grading.paperText,
        { path: out, manifest },
        {
          ...gradeOptions(p, judge),
          ...options,
        },
      ),
    ),
  );
  for (const t of result.tookOverFrom)
    ctx.io.err(
      `note: resuming after ${t.command} (pid ${t.pid}, started ${t.started_at}) stopped without finishing\n`,
    );
  reportOutcome(ctx, run.models, result);
  const summary = printSummary(ctx, result.grades, Number(opts.seed));
  const summaryFile = `${out.replace(/\.jsonl?$/i, '')}.summary.json`;
  const provenance = { manifest: result.manifest, bootstrap_seed: Number(opts.seed) };
  writeFileAtomic(summaryFile, `${JSON.stringify({ ...provenance, ...(summary as object) }, null, 2)}\n`);
  if (!ctx.globals().json) {
    const kept = result.kept > 0 ? ` (${result.kept} kept from an earlier run)` : '';
    ctx.io.out(`\n${result.grades.length} graded rows${kept} → ${opts.out}\n`);
  }
}

/** The `run` input of a grades manifest: the run's identity, or the file's bytes when it has no manifest. */
function runInput(manifest: RunManifest | null, path: string, given: string) {
  return manifest
    ? { sha256: sha256Hex(manifest.run_id), path: given, label: manifest.label, run_id: manifest.run_id }
    : { sha256: sha256Hex(readFileSync(path)), path: given };
}

/** `grade --dry-run`: the judge calls the rows left to grade would make (the citation metrics are free). */
function printJudgeEstimate(
  ctx: CliContext,
  p: Prepared,
  target: { path: string; manifest: RunManifest },
): void {
  const judge = p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null;
  const run = p.runs[0]!.rows;
  const estimate = judge
    ? estimateJudging(p.dataset, run, target, judge, p.settings.prices)
    : { rows: run.length, kept: 0, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const result = { dry_run: true, label: target.manifest.label, judge, ...estimate };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cost = estimate.costUsd === null ? 'no price for this model' : `~$${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    judge
      ? `dry run, nothing called or written: ${estimate.rows} rows to grade as "${target.manifest.label}" (${estimate.kept} kept); judge ${judge}: ${estimate.calls} calls, ~${estimate.inputTokens} input + ~${estimate.outputTokens} output tokens, ${cost}\n`
      : `dry run: no judge, so no model calls (the citation metrics are computed locally)\n`,
  );
}

/** Output and errors of a subcommand go where the program's go (tests capture them). */
function sameOutput(ctx: CliContext, command: Command): Command {
  return command
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
}

/**
 * `grade` is a command group: `grade researchqa` (the default, so `grade --dataset … --run …` works
 * as it always did) and `grade faithfulness` beside it. The group has no options of its own, so an
 * option given before a subcommand name (`grade --dataset X faithfulness`) is an error, not a flag
 * silently ignored.
 */
export function gradeGroup(program: Command, ctx: CliContext): Command {
  const existing = program.commands.find((c) => c.name() === 'grade');
  if (existing) return existing;
  const group = program
    .command('grade')
    .description(
      'grade answers: ResearchQA metrics (`grade researchqa`, the default) or VETSCORE (`grade faithfulness`)',
    );
  // Options before a subcommand name send everything to the default subcommand, which would then
  // complain about its own options: say what went wrong instead.
  group.hook('preSubcommand', (self, sub) => {
    const named = self.commands.find((c) => c.name() !== sub.name() && self.args.includes(c.name()));
    if (named && self.args[0] !== sub.name()) {
      throw new CitegeistError(
        'BAD_ARGUMENTS',
        `\`grade ${self.args.join(' ')}\`: options were given before the subcommand "${named.name()}".`,
        `Put them after it: \`citegeist grade ${named.name()} --…\` (see \`citegeist grade ${named.name()} --help\`).`,
      );
    }
  });
  return sameOutput(ctx, group);
}

export const registerGrade: RegisterCommand = (program, ctx) => {
  const command = sameOutput(
    ctx,
    gradeGroup(program, ctx)
      .command('researchqa', { isDefault: true })
      .description(
        'grade a run against a dataset: ResearchQA citation metrics, and the rubric judge with --judge (the default of `grade`)',
      ),
  )
    .requiredOption('--dataset <file>', 'dataset (eval_dataset.json or JSONL)')
    .requiredOption('--run <file>', 'run (citegeist run JSONL, or the published results JSON list)')
    .option(
      '--match <mode>',
      'quote ↔ evidence alternative match: researchqa (difflib ≥ 0.5) | span',
      'researchqa',
    )
    .option(
      '--quote-mode <mode>',
      'quote matcher for citation accuracy: researchqa | strict (default: quoteMode in the config file, else researchqa)',
    )
    .option(
      '--threads <n>',
      'threads for the citation metrics (default: all available cores, at most one per 500 rows)',
      parseIntOption('--threads', 1),
    )
    .option('--model <name>', 'model name for runs that do not record one (published layout)')
    .option('--seed <n>', 'bootstrap seed (summary only)', '0')
    .option(
      '--label <name>',
      "the grading's name in leaderboards (default: the run's label, plus grading settings that differ from the defaults)",
    )
    .requiredOption(
      '--out <file>',
      'grades JSONL, written as rows complete and resumed if it exists (a summary JSON is written beside it)',
    );
  addPaperSourceOptions(command);
  addLlmOptions(command, { model: false, judge: true }).action(
    (opts: GradeOptions & { run: string; out: string }) => gradeToFile(ctx, opts),
  );
};

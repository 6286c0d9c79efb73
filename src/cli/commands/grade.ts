import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CitegeistError, type DatasetRow } from '../../core/index.js';
import { readDatasetStrict } from '../../generate/index.js';
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
import type { CliContext, RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  refuseDryRun,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress, type ModelCall } from '../progress.js';
import { parseIntOption } from './option-parsers.js';
import { addPaperSourceOptions, loadPaperTexts, paperSourceOf } from './paper-source.js';

export interface GradeOptions extends Omit<LlmFlags, 'model'> {
  dataset: string;
  papers?: string;
  corpus?: string;
  match: AlternativeMatchMode;
  quoteMode: 'researchqa' | 'strict';
  /** The model name for runs that record none (not an LLM: grading calls only the judge). */
  model?: string;
  seed: string;
  /** Threads for the deterministic metrics (default: the machine's available parallelism). */
  threads?: number;
  /** Count the rubric judge's unverified support as support (`--trust-unlocated-evidence`). */
  trustUnlocatedEvidence?: boolean;
}

/** Grades run files against a dataset; shared by `grade` and `leaderboard`. */
export async function gradeRunFiles(
  ctx: CliContext,
  runFiles: string[],
  opts: GradeOptions,
): Promise<GradeRow[]> {
  checkEnum('--match', opts.match, ['researchqa', 'span']);
  checkEnum('--quote-mode', opts.quoteMode, ['researchqa', 'strict']);
  const dataset = readDatasetStrict(resolve(ctx.io.cwd, opts.dataset));
  const runs = runFiles.map((f) => {
    const run = readRun(resolve(ctx.io.cwd, f), opts.model ? { model: opts.model } : {});
    for (const e of run.errors.slice(0, 10)) ctx.io.err(`skipped ${e.where}: ${e.message}\n`);
    if (run.errors.length > 0) ctx.setExitCode(1);
    return run;
  });
  const neededIds = new Set(runs.flatMap((r) => r.rows.map((x) => x.row_id)));
  const paperIds = dataset.filter((r) => neededIds.has(r.row_id)).map((r) => r.paper_id);
  const { texts, missing } = await loadPaperTexts(paperIds, paperSourceOf(ctx, opts), ctx.io.cwd);
  if (missing.length > 0) {
    ctx.io.err(
      `${missing.length} paper(s) not found (their citation accuracy is "failed"): ${missing.slice(0, 5).join(', ')}\n`,
    );
  }
  const grading: Grading = {
    paperText: (id) => texts.get(id) ?? null,
    match: opts.match,
    quoteMode: opts.quoteMode,
    ...(opts.threads === undefined ? {} : { threads: opts.threads }),
    onWorkerFailure: (message) => ctx.io.err(`warning: ${message}\n`),
  };
  const { model: _runModel, threads: _threads, trustUnlocatedEvidence, ...flags } = opts;
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  if (!settings.judge) return gradeAll(ctx, runs, dataset, grading, settings, undefined);
  refuseDryRun(settings, 'Grading with a judge');
  const runtime = createLlmRuntime(settings, ctx.io.env);
  try {
    const judge = new AnchoredRubricJudge(runtime.provider(settings.judge), {
      trustUnlocatedEvidence: trustUnlocatedEvidence === true,
    });
    for (const w of circularityWarnings(
      [judge],
      runs.flatMap((r) => r.models),
    ))
      ctx.io.err(`warning: ${w}\n`);
    return await gradeAll(ctx, runs, dataset, grading, settings, judge, (l) => runtime.onCall(l));
  } finally {
    runtime.close();
  }
}

/** Runs of at least this many rows show progress while their citation metrics are computed. */
const PROGRESS_ROWS = 5000;

/** How the deterministic metrics are computed (shared by every run graded in one command). */
interface Grading extends Omit<GradeRunOptions, 'judge' | 'concurrency' | 'onRow' | 'signal'> {
  paperText: (paperId: string) => string | null;
}

async function gradeAll(
  ctx: CliContext,
  runs: ReturnType<typeof readRun>[],
  dataset: DatasetRow[],
  { paperText, ...grading }: Grading,
  settings: LlmSettings,
  judge: AnchoredRubricJudge | undefined,
  onCall?: (listener: (call: ModelCall) => void) => void,
): Promise<GradeRow[]> {
  const all: GradeRow[] = [];
  for (const run of runs) {
    // Progress for the judge, and for runs large enough to take seconds without it (about 6 s for
    // 50,000 rows on two cores); small runs grade silently.
    const large = run.rows.length >= PROGRESS_ROWS;
    const progress = judge
      ? createLazyProgress({ io: ctx.io, label: 'judged' })
      : large
        ? createLazyProgress({ io: ctx.io, label: 'graded' })
        : null;
    if (progress) onCall?.((call) => progress.call(call));
    const result = await gradeRun(dataset, run.rows, paperText, {
      ...grading,
      ...(judge ? { judge } : {}),
      concurrency: settings.concurrency,
      ...(progress
        ? {
            onRow: (g: GradeRow, _done: number, total: number) =>
              progress.tick({ ok: judge ? g.status.factual_accuracy !== 'failed' : !g.answer_failed }, total),
          }
        : {}),
    }).finally(() => progress?.stop());
    if (result.unknownRows.length > 0) {
      ctx.io.err(
        `${result.unknownRows.length} run row(s) are not in the dataset: ${result.unknownRows.slice(0, 5).join(', ')}\n`,
      );
      ctx.setExitCode(1);
    }
    if (result.missingRows.length > 0) {
      ctx.io.err(
        `${run.models.join(', ')}: ${result.missingRows.length} dataset row(s) have no answer in the run\n`,
      );
    }
    if (result.judgeFailures > 0)
      ctx.io.err(`${result.judgeFailures} judge failure(s) (recorded as failed, not 0)\n`);
    all.push(...result.grades);
  }
  return all;
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

export const registerGrade: RegisterCommand = (program, ctx) => {
  const command = program
    .command('grade')
    .description(
      'grade a run against a dataset: ResearchQA citation metrics, and the rubric judge with --judge',
    )
    .requiredOption('--dataset <file>', 'dataset (eval_dataset.json or JSONL)')
    .requiredOption('--run <file>', 'run (citegeist run JSONL, or the published results JSON list)')
    .option(
      '--match <mode>',
      'quote ↔ evidence alternative match: researchqa (difflib ≥ 0.5) | span',
      'researchqa',
    )
    .option('--quote-mode <mode>', 'quote matcher for citation accuracy: researchqa | strict', 'researchqa')
    .option(
      '--threads <n>',
      'threads for the citation metrics (default: all available cores)',
      parseIntOption('--threads', 1),
    )
    .option('--model <name>', 'model name for runs that do not record one (published layout)')
    .option('--seed <n>', 'bootstrap seed', '0')
    .option(
      '--trust-unlocated-evidence',
      "count the judge's claims of support whose quotes are not found as support (default: they count as errors)",
    )
    .requiredOption('--out <file>', 'grades JSONL (a summary JSON is written beside it)');
  addPaperSourceOptions(command);
  addLlmOptions(command, { model: false, judge: true }).action(
    async (opts: GradeOptions & { run: string; out: string }) => {
      const grades = await gradeRunFiles(ctx, [opts.run], opts);
      const out = resolve(ctx.io.cwd, opts.out);
      writeFileSync(out, grades.map((g) => `${JSON.stringify(g)}\n`).join(''));
      const summary = printSummary(ctx, grades, Number(opts.seed));
      writeFileSync(`${out.replace(/\.jsonl?$/i, '')}.summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
      if (!ctx.globals().json) ctx.io.out(`\n${grades.length} graded rows → ${opts.out}\n`);
    },
  );
};

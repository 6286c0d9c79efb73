import { resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  finishGradesFile,
  gradeRunToFile,
  gradesJudgeNoise,
  gradesTarget,
  parseGrades,
  RUBRIC_JUDGE_TEMPERATURE,
} from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { renderJudgeVariance } from '../../report/index.js';
import { describeSource } from '../../store/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { addLlmOptions } from '../llm-options.js';
import { addCheckOption } from '../setup/dataset-preflight.js';
import { printJudgeEstimate } from '../setup/grade-dry-run.js';
import { gradeGroup, sameOutput } from '../setup/grade-group.js';
import {
  type GradeOptions,
  gradeOptions,
  prepare,
  printSummary,
  reportOutcome,
  withJudge,
  withProgress,
} from '../setup/grading.js';
import { addJudgeCardOptions, type JudgeCardFlags } from '../setup/judge-card-options.js';
import { countOption, parseIntOption, seedOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions, paperSourceOf } from '../setup/paper-source.js';
import { rubricJudgeCard } from '../setup/rubric-judge-card.js';
import { noteTakeovers } from '../takeover-note.js';

/**
 * `citegeist grade`: a command group whose default subcommand, `grade researchqa`, grades one run
 * into a grades file (rows appended as they complete, resumable like `answer`).
 */

// `grade faithfulness` adds itself to the same group.

type GradeFlags = GradeOptions & JudgeCardFlags & { run: string; out: string; repeats: number };

/** Grades one run into a grades file (rows appended as they complete, resumable), then the summary. */
async function gradeToFile(ctx: CliContext, opts: GradeFlags): Promise<void> {
  const p = await prepare(ctx, [opts.run], opts, true);
  try {
    const run = p.runs[0]!;
    const card = rubricJudgeCard(ctx, p, opts, resolve(ctx.io.cwd, opts.out));
    if (opts.repeats > 1 && !p.settings.judge) {
      throw new CitegeistError(
        'BAD_OPTION',
        '--repeats was given but no --judge: only the rubric judge is repeated (the citation metrics are deterministic).',
        'Add --judge <model>, or leave --repeats out.',
      );
    }
    const target = gradesTarget(p, {
      out: opts.out,
      dataset: opts.dataset,
      run: opts.run,
      cwd: ctx.io.cwd,
      label: opts.label,
      judge: p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null,
      trustUnlocatedEvidence: p.trustUnlocatedEvidence,
      judgeRepeats: { repeats: opts.repeats, temperature: RUBRIC_JUDGE_TEMPERATURE },
      papers: describeSource(paperSourceOf(ctx, opts)),
      version: VERSION,
    });
    if (p.settings.dryRun) return printJudgeEstimate(ctx, p, target, opts.repeats);
    const result = await withJudge(
      ctx,
      p,
      (judge, onCall) =>
        withProgress(
          ctx,
          run.rows.length,
          judge,
          // The rows are in the file; the summary is built as they come (a large run is not held).
          (options) =>
            gradeRunToFile(p.dataset, run.rows, p.grading.paperText, target, {
              ...gradeOptions(p, judge),
              ...options,
              repeats: opts.repeats,
              keep: false,
            }),
          onCall,
        ),
      target.manifest,
    );
    noteTakeovers(ctx.io, result.tookOverFrom);
    reportOutcome(ctx, run.models, result);
    // Judged K times: the judge's own noise, from every row of the file (kept ones too), in run order.
    const order = new Map(run.rows.map((r, i) => [r.row_id, i]));
    const noise =
      opts.repeats > 1
        ? gradesJudgeNoise(
            parseGrades(opts.out, readTextFile(target.path, 'grades file')).sort(
              (a, b) => (order.get(a.row_id) ?? 0) - (order.get(b.row_id) ?? 0),
            ),
          )
        : [];
    const extra = {
      ...(card ? { judge_card: card } : {}),
      ...(noise.length > 0 ? { judge_noise: noise } : {}),
    };
    const figures = printSummary(ctx, result.summary, opts.seed, {
      json: extra,
      text: `${card ? `\n${card.line}\n` : ''}${noise.length > 0 ? `\n${renderJudgeVariance(noise)}` : ''}`,
    });
    const { missingFields } = finishGradesFile(p, target, result, figures, opts.seed, extra);
    if (ctx.globals().json) return;
    const kept = result.kept > 0 ? ` (${result.kept} kept from an earlier run)` : '';
    ctx.io.out(`\n${result.rows} graded rows${kept} → ${opts.out}\n`);
    if (p.partial.length > 0) {
      ctx.io.out(
        `PARTIAL: the run was still being written; these figures cover the ${run.rows.length} rows it held (label "${result.manifest.label}")\n`,
      );
    }
    const unscored = Object.values(missingFields).reduce((n, count) => n + count, 0);
    if (unscored > 0)
      ctx.io.out(`${unscored} row(s) lacked a score-changing field (missing_fields in the summary)\n`);
  } finally {
    p.close();
  }
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
    .requiredOption(
      '--dataset <file>',
      'dataset (eval_dataset.json, JSONL, or the hub export as JSON, JSONL or .parquet)',
    )
    .requiredOption(
      '--run <file>',
      'run (citegeist run JSONL, or the published harness results eval_<model>[_baseline].json or its rows as a JSON list)',
    )
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
      'threads for the citation metrics (default: up to all available cores, started only when the work left pays for them)',
      parseIntOption('--threads', 1),
    )
    .option('--model <name>', 'model name for runs that do not record one (published layout)')
    .option('--seed <n>', 'bootstrap seed (summary only)', seedOption('--seed'), 0)
    .option(
      '--label <name>',
      "the grading's name in leaderboards (default: the run's label, plus grading settings that differ from the defaults)",
    )
    .option(
      '--trust-unlocated-evidence',
      "count the judge's claims of support whose quotes are not found as support (default: they count as errors)",
    )
    .option(
      '--repeats <k>',
      "with --judge: judge each row k times (distinct cache keys; the row keeps the mean and every call's scores, for the judge noise in the summary, `compare` and `leaderboard`)",
      countOption('--repeats'),
      1,
    )
    .requiredOption(
      '--out <file>',
      'grades JSONL, written as rows complete and resumed if it exists (a summary JSON is written beside it)',
    )
    .option(
      '--allow-partial',
      'grade a run that is still being written (its writer holds its lock): the rows it holds now, marked partial in the manifest, label and summary',
    );
  addPaperSourceOptions(command);
  addCheckOption(command);
  addJudgeCardOptions(command, 'rubric judge (meta-eval judge --set ragchecker)');
  addLlmOptions(command, { model: false, judge: true }).action((opts: GradeFlags) => gradeToFile(ctx, opts));
};

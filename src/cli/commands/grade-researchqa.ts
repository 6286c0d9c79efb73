import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError, papersInputOfHashes, type RunManifest, sha256Hex } from '../../core/index.js';
import {
  type CardNote,
  certifyJudge,
  estimateJudging,
  gradeRunToFile,
  gradesJudgeNoise,
  gradesManifest,
  parseGrades,
  RUBRIC_JUDGE_TEMPERATURE,
  rubricJudgeOf,
} from '../../grade/index.js';
import { byField, readTextFile, reorderRunFile, sha256OfFile, writeFileAtomic } from '../../io/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { renderJudgeVariance } from '../../report/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { addLlmOptions } from '../llm-options.js';
import { addCheckOption } from '../setup/dataset-preflight.js';
import {
  type GradeOptions,
  gradeOptions,
  type Prepared,
  prepare,
  printSummary,
  reportOutcome,
  withJudge,
  withProgress,
} from '../setup/grading.js';
import { addJudgeCardOptions, type JudgeCardFlags } from '../setup/judge-card-options.js';
import { countOption, parseIntOption, seedOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions, describeSource, paperSourceOf } from '../setup/paper-source.js';
import { noteTakeovers } from '../takeover-note.js';

type GradeFlags = GradeOptions & JudgeCardFlags & { run: string; out: string; repeats: number };

/**
 * `citegeist grade`: a command group whose default subcommand, `grade researchqa`, grades one run
 * into a grades file (rows appended as they complete, resumable like `answer`).
 */

/** Grades one run into a grades file (rows appended as they complete, resumable), then the summary. */
async function gradeToFile(ctx: CliContext, opts: GradeFlags): Promise<void> {
  const p = await prepare(ctx, [opts.run], opts, true);
  try {
    await gradePrepared(ctx, p, opts);
  } finally {
    p.close();
  }
}

async function gradePrepared(ctx: CliContext, p: Prepared, opts: GradeFlags): Promise<void> {
  const run = p.runs[0]!;
  const out = resolve(ctx.io.cwd, opts.out);
  const card = rubricJudgeCard(ctx, p, opts, out);
  if (opts.repeats > 1 && !p.settings.judge) {
    throw new CitegeistError(
      'BAD_OPTION',
      '--repeats was given but no --judge: only the rubric judge is repeated (the citation metrics are deterministic).',
      'Add --judge <model>, or leave --repeats out.',
    );
  }
  const manifest = gradesManifest({
    runLabel: run.manifest?.label ?? run.models.join(', '),
    label: opts.label,
    settings: {
      match: opts.match,
      quoteMode: p.quoteMode,
      judge: p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null,
      trustUnlocatedEvidence: p.trustUnlocatedEvidence,
      judgeRepeats: { repeats: opts.repeats, temperature: RUBRIC_JUDGE_TEMPERATURE },
    },
    dataset: {
      sha256: p.datasetSha256,
      path: opts.dataset,
      rows: p.dataset.length,
    },
    papers: papersInputOfHashes(p.paperHashes, describeSource(paperSourceOf(ctx, opts))),
    run: runInput(run.manifest, resolve(ctx.io.cwd, opts.run), opts.run),
    version: VERSION,
    partialRun: p.partial.length > 0,
  });
  if (p.settings.dryRun) return printJudgeEstimate(ctx, p, { path: out, manifest }, opts.repeats);
  const result = await withJudge(
    ctx,
    p,
    (judge, onCall) =>
      withProgress(
        ctx,
        run.rows.length,
        judge,
        (options) =>
          gradeRunToFile(
            p.dataset,
            run.rows,
            p.grading.paperText,
            { path: out, manifest },
            {
              ...gradeOptions(p, judge),
              ...options,
              repeats: opts.repeats,
              // The rows are in the file; the summary is built as they come (a large run is not held).
              keep: false,
            },
          ),
        onCall,
      ),
    manifest,
  );
  reorderRunFile(out, {
    key: byField('row_id'),
    command: 'citegeist grade',
    order: run.rows.map((r) => r.row_id),
  });
  noteTakeovers(ctx.io, result.tookOverFrom);
  reportOutcome(ctx, run.models, result);
  // Judged K times: the judge's own noise, from every row of the file (kept ones too).
  const noise =
    opts.repeats > 1 ? gradesJudgeNoise(parseGrades(opts.out, readTextFile(out, 'grades file'))) : [];
  const judgeNoise = noise.length > 0 ? { judge_noise: noise } : {};
  const summary = printSummary(ctx, result.summary, opts.seed, {
    json: { ...(card ? { judge_card: card } : {}), ...judgeNoise },
    text: `${card ? `\n${card.line}\n` : ''}${noise.length > 0 ? `\n${renderJudgeVariance(noise)}` : ''}`,
  });
  const summaryFile = `${out.replace(/\.jsonl?$/i, '')}.summary.json`;
  const provenance = {
    manifest: result.manifest,
    bootstrap_seed: opts.seed,
    // A run graded while it was being written: its figures cover only the rows it then held.
    ...(p.partial.length > 0 ? { partial: { run_rows_graded: run.rows.length, writers: p.partial } } : {}),
  };
  // Rows scored without a field that changes their scores (as an empty list): field → count.
  const missingFields = Object.fromEntries(
    Object.entries(p.missingFields).map(([field, ids]) => [field, ids.length]),
  );
  writeFileAtomic(
    summaryFile,
    `${JSON.stringify({ ...provenance, ...(summary as object), missing_fields: missingFields, ...(card ? { judge_card: card } : {}), ...judgeNoise }, null, 2)}\n`,
  );
  if (!ctx.globals().json) {
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
  }
}

/**
 * The rubric judge's card (--judge-card, else found beside the output or in the workspace),
 * refused under --require-agreement before any call; null when nothing is judged.
 */
function rubricJudgeCard(ctx: CliContext, p: Prepared, opts: GradeFlags, out: string): CardNote | null {
  if (!p.settings.judge) {
    if (opts.judgeCard === undefined) return null;
    throw new CitegeistError(
      'BAD_OPTION',
      '--judge-card was given but no --judge: without a judge `grade` makes no judged numbers.',
      'Add --judge <model> (the model the card certifies), or leave --judge-card out.',
    );
  }
  const judge = rubricJudgeOf(modelId(parseModelString(p.settings.judge, '--judge')));
  return certifyJudge(
    judge,
    { cwd: ctx.io.cwd, given: opts.judgeCard, near: [dirname(out)] },
    opts.requireAgreement,
  );
}

/** The `run` input of a grades manifest: the run's identity, or the file's bytes when it has no manifest. */
function runInput(manifest: RunManifest | null, path: string, given: string) {
  return manifest
    ? { sha256: sha256Hex(manifest.run_id), path: given, label: manifest.label, run_id: manifest.run_id }
    : { sha256: sha256OfFile(path, 'run file').sha256, path: given };
}

/** `grade --dry-run`: the judge calls the rows left to grade would make (the citation metrics are free). */
function printJudgeEstimate(
  ctx: CliContext,
  p: Prepared,
  target: { path: string; manifest: RunManifest },
  repeats: number,
): void {
  const judge = p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null;
  const run = p.runs[0]!.rows;
  const estimate = judge
    ? estimateJudging(p.dataset, run, target, judge, p.settings.prices, repeats)
    : { rows: run.length, kept: 0, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const result = { dry_run: true, label: target.manifest.label, judge, repeats, ...estimate };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cost = estimate.costUsd === null ? 'no price for this model' : `~$${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    judge
      ? `dry run, nothing called or written: ${estimate.rows} rows to grade as "${target.manifest.label}" (${estimate.kept} kept); judge ${judge}: ${estimate.calls} calls${repeats > 1 ? ` (${repeats} per row)` : ''}, ~${estimate.inputTokens} input + ~${estimate.outputTokens} output tokens, ${cost}\n`
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
        'BAD_OPTION',
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
      'with --judge: judge each row k times (distinct cache keys; the row keeps the mean and every call’s scores, for the judge noise in the summary and in `compare`)',
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

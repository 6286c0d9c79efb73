import { resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  argueIntervals,
  argueJudgeNoise,
  compareScoredRuns,
  formatArgueTsv,
  formatNuggetizerMetrics,
  incompleteScoring,
  nuggetizerGlobal,
  nuggetizerScoresOfText,
  parseImportanceWeights,
  scoreInputs,
  scoreMeta,
} from '../../grade/index.js';
import { hashInputs, readTextFile, writeFileAtomic } from '../../io/index.js';
import { renderArgueJudgeNoise, renderArgueScoring } from '../../report/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { collect, countOption, seedOption } from '../setup/option-parsers.js';
import { readBanks, readRequests, reportProblems, reportsCommand } from '../setup/report-runs-inputs.js';
import { addComparisonOptions, type ComparisonFlags, comparisonOptions } from './comparison-options.js';

interface ScoreFlags extends ComparisonFlags {
  judgments: string[];
  nuggets: string;
  requests?: string;
  penalizeMissingTopics: boolean;
  importanceWeights?: string;
  out: string;
  iterations: number;
  seed: number;
}

function scoreArgue(flags: ScoreFlags, ctx: CliContext): void {
  const { io } = ctx;
  const labelWeights = flags.importanceWeights ? parseImportanceWeights(flags.importanceWeights) : {};
  const { runs, rows, superseded, problems, unweightedLabels } = scoreInputs({
    judgments: flags.judgments.map((file) => ({
      file,
      text: readTextFile(resolve(io.cwd, file), 'judgments file'),
    })),
    banks: readBanks(io.cwd, flags.nuggets),
    requests: flags.requests ? readRequests(io.cwd, flags.requests) : null,
    penalizeMissingTopics: flags.penalizeMissingTopics,
    labelWeights,
  });
  reportProblems(ctx, problems);
  if (runs.length === 0) {
    throw new CitegeistError(
      'NO_ROWS',
      `No judged report could be read from ${flags.judgments.join(', ')}.`,
      'Judge a run first: `citegeist reports judge …`.',
    );
  }
  const out = resolve(io.cwd, flags.out);
  writeFileAtomic(out, formatArgueTsv(rows));
  const inputs = [...flags.judgments, flags.nuggets, ...(flags.requests ? [flags.requests] : [])];
  const meta = scoreMeta({
    version: VERSION,
    inputsSha256: hashInputs(io.cwd, inputs),
    penalizeMissingTopics: flags.penalizeMissingTopics,
    labelWeights,
    unweightedLabels,
    superseded,
    problems,
    runs,
  });
  writeFileAtomic(`${out}.meta.json`, `${JSON.stringify(meta, null, 2)}\n`);
  const { iterations, seed, penalizeMissingTopics } = flags;
  const scored = runs.map((run) => ({
    run,
    intervals: run.topics.length > 0 ? argueIntervals(rows, run.runId, { iterations, seed }) : [],
  }));
  // Two or more runs: compared topic by topic (the pairwise table of `compare` and `leaderboard`).
  const compared = comparisonOptions(flags, flags.seed);
  const pairwise = compareScoredRuns(runs, rows, compared);
  // Reports judged K times (`reports judge --repeats K`): the judge's share of the variance.
  const noise = argueJudgeNoise(runs, rows, compared);
  if (ctx.globals().json) {
    const intervals = scored.map((x) => ({ run_id: x.run.runId, metrics: x.intervals }));
    const judge = noise ? { judge_noise: noise } : {};
    io.out(`${JSON.stringify({ scores: flags.out, meta, intervals, pairwise, ...judge }, null, 2)}\n`);
  } else {
    io.out(
      renderArgueScoring({ runs: scored, pairwise, unweightedLabels, penalizeMissingTopics, out: flags.out }),
    );
    if (noise) io.out(`\n${renderArgueJudgeNoise(noise)}`);
  }
  const incomplete = incompleteScoring(runs, problems.length);
  if (incomplete) {
    io.err(`${incomplete}\n`);
    ctx.setExitCode(1);
  }
}

export const registerReportsScore: RegisterCommand = (program, ctx) => {
  const reports = reportsCommand(program);
  const score = reports
    .command('score')
    .description(
      "score judged reports with Auto-ARGUE's metrics (TSV: run_id request_id metric value, per topic and 'all'), bootstrap CIs over topics, and several runs compared topic by topic",
    )
    .requiredOption(
      '--judgments <file>',
      'judgments JSONL from `reports judge` or Auto-ARGUE (repeatable)',
      collect,
      [],
    )
    .requiredOption('--nuggets <path>', 'nugget banks (folder or file)')
    .option(
      '--requests <file>',
      'requests JSONL: the topics every run should cover (default: every topic with nuggets)',
    )
    .option(
      '--penalize-missing-topics',
      'score a topic without a report as 0 instead of leaving it out',
      false,
    )
    .option(
      '--importance-weights <label=w,…>',
      'weights of importance labels (numeric importances are used as they are)',
    )
    .requiredOption('--out <file>', 'scores TSV')
    .option('--iterations <n>', 'bootstrap resamples for the CIs', countOption('--iterations'), 2000)
    .option('--seed <n>', 'bootstrap seed (and of the comparison of runs)', seedOption('--seed'), 42);
  addComparisonOptions(score).action((flags: ScoreFlags) => scoreArgue(flags, ctx));

  reports
    .command('nuggetizer-score')
    .description("nuggetizer's scores (strict_vital, strict_all, vital, all) from its assignment JSONL")
    .requiredOption(
      '--assignments <file>',
      'nuggetizer assignment output: {qid, nuggets: [{text, importance, assignment}]} per line',
    )
    .requiredOption(
      '--out <file>',
      'metrics JSONL as calculate_metrics.py writes it (per record, then "all")',
    )
    .action((flags: { assignments: string; out: string }) => {
      const path = resolve(ctx.io.cwd, flags.assignments);
      const scores = nuggetizerScoresOfText(readTextFile(path, 'assignments file'), flags.assignments);
      writeFileAtomic(resolve(ctx.io.cwd, flags.out), formatNuggetizerMetrics(scores));
      const all = nuggetizerGlobal(scores);
      if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(all, null, 2)}\n`);
      ctx.io.out(
        `${scores.length} answers: strict_vital ${all.strict_vital_score.toFixed(4)}, strict_all ${all.strict_all_score.toFixed(4)}, vital ${all.vital_score.toFixed(4)}, all ${all.all_score.toFixed(4)}\nmetrics: ${flags.out}\n`,
      );
    });
};

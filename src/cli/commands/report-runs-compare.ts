import { resolve } from 'node:path';
import { Option } from 'commander';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { argueRunsTable, parseArgueTsv, type ScoreRow } from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import { renderPairwiseTable } from '../../report/index.js';
import type { RegisterCommand } from '../context.js';
import { collect, countOption, seedOption } from '../setup/option-parsers.js';
import { reportsCommand } from '../setup/report-runs-inputs.js';

interface CompareFlags {
  runA?: string;
  runB?: string;
  metric: string[];
  iterations: number;
  seed: number;
}

function pickRun(rows: ScoreRow[], file: string, wanted: string | undefined, flag: string): string {
  const runs = [...new Set(rows.map((r) => r.runId))];
  if (wanted !== undefined) {
    if (!runs.includes(wanted))
      throw new CitegeistError(
        'BAD_OPTION',
        `${file} has no run ${quoteValue(wanted)} (it has ${runs.join(', ')}).`,
        `Pass ${flag} with one of them.`,
      );
    return wanted;
  }
  if (runs.length !== 1)
    throw new CitegeistError(
      'OPTION_REQUIRED',
      `${file} holds ${runs.length} runs (${runs.slice(0, 5).join(', ')}).`,
      `Pass ${flag} <run_id>.`,
    );
  return runs[0]!;
}

/** `citegeist reports compare A.tsv B.tsv`: the two runs topic by topic, in the pairwise table of `leaderboard` and `compare`. */
export const registerReportsCompare: RegisterCommand = (program, ctx) => {
  reportsCommand(program)
    .command('compare')
    .description(
      'compare two scored runs topic by topic: the pairwise table of `leaderboard` and `compare` (Δ = A − B with its bootstrap interval, paired randomization test, Holm over the metrics)',
    )
    .argument('<scoresA>', 'baseline scores TSV')
    .argument('<scoresB>', 'scores TSV compared against the baseline')
    .option('--run-a <id>', 'run of A to compare (when the TSV holds several)')
    .option('--run-b <id>', 'run of B to compare')
    .addOption(
      new Option('-m, --metric <name>', 'per-topic metric, repeatable')
        .argParser(collect)
        .default([], 'sentence_support, nugget_coverage, f1, citation_support'),
    )
    .option(
      '--iterations <n>',
      'bootstrap resamples and random sign patterns',
      countOption('--iterations'),
      10_000,
    )
    .option('--seed <n>', 'resampling seed', seedOption('--seed'), 42)
    .action((fileA: string, fileB: string, flags: CompareFlags) => {
      const rowsA = parseArgueTsv(readTextFile(resolve(ctx.io.cwd, fileA), 'scores TSV'), fileA);
      const rowsB = parseArgueTsv(readTextFile(resolve(ctx.io.cwd, fileB), 'scores TSV'), fileB);
      const a = { rows: rowsA, runId: pickRun(rowsA, fileA, flags.runA, '--run-a') };
      const b = { rows: rowsB, runId: pickRun(rowsB, fileB, flags.runB, '--run-b') };
      const metrics = flags.metric.length
        ? flags.metric
        : ['sentence_support', 'nugget_coverage', 'f1', 'citation_support'];
      const table = argueRunsTable(a, b, metrics, { iterations: flags.iterations, seed: flags.seed });
      if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(table, null, 2)}\n`);
      ctx.io.out(renderPairwiseTable(table));
    });
};

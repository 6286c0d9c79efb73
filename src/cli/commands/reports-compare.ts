import { resolve } from 'node:path';
import { Option } from 'commander';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { compareArgueRuns, parseArgueTsv, type ScoreRow } from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import { formatComparison } from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { collect, countOption, seedOption } from './option-parsers.js';
import { reportsCommand } from './reports-inputs.js';

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

/** `citegeist reports compare A.tsv B.tsv`: paired per-topic comparison, `citegeist compare` style. */
export const registerReportsCompare: RegisterCommand = (program, ctx) => {
  reportsCommand(program)
    .command('compare')
    .description(
      'compare two scored runs per topic: mean difference, win/tie/loss, paired t-test and randomization test',
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
    .option('--iterations <n>', 'randomization test draws', countOption('--iterations'), 10_000)
    .option('--seed <n>', 'randomization test seed', seedOption('--seed'), 42)
    .action((fileA: string, fileB: string, flags: CompareFlags) => {
      const rowsA = parseArgueTsv(readTextFile(resolve(ctx.io.cwd, fileA), 'scores TSV'), fileA);
      const rowsB = parseArgueTsv(readTextFile(resolve(ctx.io.cwd, fileB), 'scores TSV'), fileB);
      const a = { rows: rowsA, runId: pickRun(rowsA, fileA, flags.runA, '--run-a') };
      const b = { rows: rowsB, runId: pickRun(rowsB, fileB, flags.runB, '--run-b') };
      const metrics = flags.metric.length
        ? flags.metric
        : ['sentence_support', 'nugget_coverage', 'f1', 'citation_support'];
      const result = compareArgueRuns(a, b, metrics, { iterations: flags.iterations, seed: flags.seed });
      if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
      ctx.io.out(formatComparison(result.comparisons, a.runId, b.runId));
      if (result.onlyA.length || result.onlyB.length) {
        ctx.io.out(
          `unpaired topics left out: ${result.onlyA.length} only in A, ${result.onlyB.length} only in B\n`,
        );
      }
    });
};

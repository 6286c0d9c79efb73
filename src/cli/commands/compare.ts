import { Option } from 'commander';
import { compareRuns, formatComparison } from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { readQrels, readRun } from '../setup/input-files.js';
import { collect, countOption, parseIntOption, seedOption } from '../setup/option-parsers.js';

interface CompareFlags {
  qrels: string;
  measure: string[];
  l?: number;
  iterations: number;
  seed: number;
  docLevel: boolean;
}

export const registerCompare: RegisterCommand = (program, ctx) => {
  program
    .command('compare')
    .description(
      'compare two TREC runs per measure over the qrels topics: mean difference, win/tie/loss, paired t-test and randomization test',
    )
    .argument('<runA>', 'baseline run')
    .argument('<runB>', 'run compared against the baseline')
    .requiredOption('--qrels <file>', 'qrels file')
    .addOption(
      new Option('-m, --measure <measure>', 'measure[.cutoffs], repeatable')
        .argParser(collect)
        .default([], 'map, ndcg_cut.10, P.10, recip_rank'),
    )
    .option('-l <level>', 'minimum grade that counts as relevant (default: 1)', parseIntOption('-l'))
    .option('--iterations <n>', 'randomization test draws', countOption('--iterations'), 10_000)
    .option('--seed <n>', 'randomization test seed', seedOption('--seed'), 42)
    .option('--doc-level', 'roll passage ids "<docId>#<n>" up to documents (max score) before scoring', false)
    .action((fileA: string, fileB: string, flags: CompareFlags) => {
      const qrels = readQrels(ctx.io.cwd, flags.qrels);
      const rows = compareRuns(
        qrels,
        readRun(ctx.io.cwd, fileA, flags.docLevel),
        readRun(ctx.io.cwd, fileB, flags.docLevel),
        {
          measures: flags.measure.length ? flags.measure : ['map', 'ndcg_cut.10', 'P.10', 'recip_rank'],
          iterations: flags.iterations,
          seed: flags.seed,
          ...(flags.l !== undefined ? { relevanceLevel: flags.l } : {}),
        },
      );
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else ctx.io.out(formatComparison(rows, fileA, fileB));
    });
};

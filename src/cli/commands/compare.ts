import { resolve } from 'node:path';
import { Option } from 'commander';
import { CitegeistError } from '../../core/index.js';
import { compareGradesFiles, isGradesText, metricLabel } from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import { renderPairwiseTable } from '../../report/index.js';
import { compareRuns, formatComparison } from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { readQrels, readRun } from '../setup/input-files.js';
import { collect, countOption, parseIntOption, seedOption } from '../setup/option-parsers.js';
import { addComparisonOptions, type ComparisonFlags, comparisonOptions } from './comparison-options.js';

interface CompareFlags extends ComparisonFlags {
  qrels?: string;
  measure: string[];
  l?: number;
  iterations: number;
  seed: number;
  docLevel: boolean;
}

export const registerCompare: RegisterCommand = (program, ctx) => {
  const command = program
    .command('compare')
    .description(
      'compare two systems item by item: TREC runs per measure over the qrels topics (mean difference, win/tie/loss, paired t-test and randomization test), or grades files per metric (the pairwise table of `leaderboard`)',
    )
    .argument('<runA>', 'baseline run, or grades file')
    .argument('<runB>', 'run compared against the baseline, or grades file')
    .option('--qrels <file>', 'qrels file (TREC runs)')
    .addOption(
      new Option('-m, --measure <measure>', 'measure[.cutoffs], repeatable')
        .argParser(collect)
        .default([], 'map, ndcg_cut.10, P.10, recip_rank'),
    )
    .option('-l <level>', 'minimum grade that counts as relevant (default: 1)', parseIntOption('-l'))
    .option('--iterations <n>', 'randomization test draws', countOption('--iterations'), 10_000)
    .option('--seed <n>', 'randomization test seed', seedOption('--seed'), 42)
    .option(
      '--doc-level',
      'roll passage ids "<docId>#<n>" up to documents (max score) before scoring',
      false,
    );
  // --test, --correction, --alpha, --resamples, --min-shared: grades files (TREC runs keep their t-test
  // and randomization test with --iterations and --seed).
  addComparisonOptions(command).action((fileA: string, fileB: string, flags: CompareFlags) => {
    const texts = [fileA, fileB].map((name) => ({
      name,
      text: readTextFile(resolve(ctx.io.cwd, name), 'file to compare'),
    }));
    if (texts.every((f) => isGradesText(f.text))) {
      // Grades files: the same paired comparison as leaderboard's table.
      const table = compareGradesFiles(texts, {
        ...comparisonOptions(flags, flags.seed),
        minShared: flags.minShared,
      });
      ctx.io.out(
        ctx.globals().json ? `${JSON.stringify(table, null, 2)}\n` : renderPairwiseTable(table, metricLabel),
      );
      return;
    }
    if (!flags.qrels) {
      throw new CitegeistError(
        'OPTION_REQUIRED',
        `${fileA} and ${fileB} are not both grades files, so they are compared as TREC runs, which need --qrels.`,
        'Add --qrels FILE for TREC runs, or give two grades files from `citegeist grade`.',
      );
    }
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

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option } from 'commander';
import { CitegeistError } from '../../core/index.js';
import { compareScoreFiles, defaultComparisonSeed, metricLabel, scoreFileKind } from '../../grade/index.js';
import { checkFinished, readTextFile } from '../../io/index.js';
import { renderJudgeNoise, renderPairwiseTable } from '../../report/index.js';
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
  seed?: number;
  docLevel: boolean;
  allowPartial?: boolean;
}

export const registerCompare: RegisterCommand = (program, ctx) => {
  const command = program
    .command('compare')
    .description(
      'compare two systems item by item: TREC runs per measure over the qrels topics (mean difference, win/tie/loss, paired t-test and randomization test), or score files per metric on their shared items (grades, ARGUE scores TSV, faithfulness results, qa-eval scores: the pairwise table of `leaderboard`)',
    )
    .argument('<runA>', 'baseline run, or score file')
    .argument('<runB>', 'run compared against the baseline, or score file of the same kind')
    .option('--qrels <file>', 'qrels file (TREC runs)')
    .addOption(
      new Option('-m, --measure <measure>', 'measure[.cutoffs], repeatable')
        .argParser(collect)
        .default([], 'map, ndcg_cut.10, P.10, recip_rank'),
    )
    .option('-l <level>', 'minimum grade that counts as relevant (default: 1)', parseIntOption('-l'))
    .option('--iterations <n>', 'randomization test draws', countOption('--iterations'), 10_000)
    .option(
      '--seed <n>',
      'resampling seed (default: 42 for TREC runs and ARGUE scores, as `reports score`; 0 for grades, faithfulness and qa-eval files, as `leaderboard` and `grade`)',
      seedOption('--seed'),
    )
    .option('--doc-level', 'roll passage ids "<docId>#<n>" up to documents (max score) before scoring', false)
    .option('--allow-partial', 'compare files still being written (their rows so far)');
  // --test, --correction, --alpha, --resamples, --min-shared: score files (TREC runs keep their t-test
  // and randomization test with --iterations and --seed).
  addComparisonOptions(command).action((fileA: string, fileB: string, flags: CompareFlags) => {
    const texts = [fileA, fileB].map((name) => {
      const path = resolve(ctx.io.cwd, name);
      // A file still being written holds part of a run: refused (RUN_INCOMPLETE) unless asked for.
      const partial = checkFinished(path, 'file to compare', flags.allowPartial === true);
      if (partial)
        ctx.io.err(`warning: ${name} is still being written by ${partial.writer}: its rows so far\n`);
      const meta = `${path}.meta.json`;
      return {
        name,
        text: readTextFile(path, 'file to compare'),
        meta: existsSync(meta) ? readTextFile(meta, 'scores meta file') : null,
      };
    });
    const kinds = texts.map((f) => scoreFileKind(f.text));
    if (kinds.every((k) => k !== null)) {
      const table = compareScoreFiles(texts, {
        ...comparisonOptions(flags, flags.seed ?? defaultComparisonSeed(kinds[0]!)),
        minShared: flags.minShared,
      });
      if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(table, null, 2)}\n`);
      ctx.io.out(renderPairwiseTable(table, metricLabel));
      for (const judge of table.judge ?? []) ctx.io.out(`\n${renderJudgeNoise(judge)}`);
      return;
    }
    if (!flags.qrels) {
      throw new CitegeistError(
        'OPTION_REQUIRED',
        `${fileA} and ${fileB} are not both score files (grades, ARGUE scores, faithfulness results, qa-eval scores), so they are compared as TREC runs, which need --qrels.`,
        'Add --qrels FILE for TREC runs, or give two score files of one kind.',
      );
    }
    const rows = compareRuns(
      readQrels(ctx.io.cwd, flags.qrels),
      readRun(ctx.io.cwd, fileA, flags.docLevel),
      readRun(ctx.io.cwd, fileB, flags.docLevel),
      {
        measures: flags.measure.length ? flags.measure : ['map', 'ndcg_cut.10', 'P.10', 'recip_rank'],
        iterations: flags.iterations,
        seed: flags.seed ?? 42,
        ...(flags.l !== undefined ? { relevanceLevel: flags.l } : {}),
      },
    );
    if (ctx.globals().json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
    else ctx.io.out(formatComparison(rows, fileA, fileB));
  });
};

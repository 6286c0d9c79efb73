import { dirname, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { readRun } from '../../formats/index.js';
import {
  assertComparable,
  type ComparableFile,
  certifyJudges,
  distinctJudges,
  type GradeRow,
  isGradesText,
  type JudgedBy,
  judgeOfManifest,
  parseGradesFile,
  RunsByLabel,
  rubricJudgeOf,
} from '../../grade/index.js';
import { checkFinished, partialLabel, readTextFile } from '../../io/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions } from '../llm-options.js';
import { addCheckOption } from '../setup/dataset-preflight.js';
import {
  type GradeOptions,
  gradeRunFiles,
  printLeaderboardEstimate,
  printSummary,
} from '../setup/grading.js';
import { addJudgeCardOptions, type JudgeCardFlags } from '../setup/judge-card-options.js';
import { leaderboardComparison } from '../setup/leaderboard-comparison.js';
import { seedOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions } from '../setup/paper-source.js';
import { addComparisonOptions, type ComparisonFlags, comparisonOptions } from './comparison-options.js';

/** --judge-card (one per judge) and --require-agreement. */
type LeaderboardCards = Omit<JudgeCardFlags, 'judgeCard'> & { judgeCard?: string[] };

export const registerLeaderboard: RegisterCommand = (program, ctx) => {
  const command = program
    .command('leaderboard')
    .description('compare models side by side (grades files, or run files graded on the fly with --dataset)')
    .argument('<files...>', 'grades JSONL from `citegeist grade`, or runs (JSONL / published JSON)')
    .option('--dataset <file>', 'dataset, needed when run files are given')
    .option('--match <mode>', 'researchqa | span', 'researchqa')
    .option(
      '--quote-mode <mode>',
      'researchqa | strict (default: quoteMode in the config file, else researchqa)',
    )
    .option('--seed <n>', 'bootstrap seed', seedOption('--seed'), 0)
    .option(
      '--trust-unlocated-evidence',
      "with --judge: count the judge's unlocated claims of support as support",
    )
    .option(
      '--allow-partial',
      'include files still being written (their writer holds the lock): their rows so far, labelled "(partial)"',
    );
  addPaperSourceOptions(command);
  addCheckOption(command);
  addComparisonOptions(command);
  addJudgeCardOptions(command, 'judges of the judged metrics', true);
  addLlmOptions(command, { model: false, judge: true }).action(
    async (
      files: string[],
      opts: Omit<GradeOptions, 'dataset'> & { dataset?: string } & ComparisonFlags & LeaderboardCards,
    ) => {
      const grades: GradeRow[] = [];
      const comparable: ComparableFile[] = [];
      const runFiles: string[] = [];
      const runs = new RunsByLabel();
      const judged: (JudgedBy | null)[] = [];
      for (const f of files) {
        const path = resolve(ctx.io.cwd, f);
        // Run files are checked (and marked) where they are graded; grades files here.
        const text = readTextFile(path, 'grades or run file');
        if (isGradesText(text)) {
          const partial = checkFinished(path, 'grades file', opts.allowPartial === true);
          const file = parseGradesFile(path, text);
          judged.push(judgeOfManifest(file.manifest));
          if (file.manifest) runs.add(file.manifest.label, file.manifest.run_id, f);
          if (partial) {
            ctx.io.err(
              `warning: ${f} is still being written by ${partial.writer}: its rows so far are shown as "(partial)"\n`,
            );
          }
          grades.push(
            ...(partial
              ? file.rows.map((r) => ({ ...r, label: partialLabel(r.label, r.model) }))
              : file.rows),
          );
          const dataset = file.manifest?.inputs.dataset?.sha256 ?? null;
          comparable.push({ name: f, datasetSha256: dataset, ids: new Set(file.rows.map((r) => r.row_id)) });
        } else {
          const manifest = readRun(path).manifest;
          if (manifest) runs.add(manifest.label, manifest.run_id, f);
          runFiles.push(f);
        }
      }
      if (runFiles.length > 0) {
        if (!opts.dataset) {
          throw new CitegeistError(
            'OPTION_REQUIRED',
            `${runFiles.join(', ')} are run files, which need grading.`,
            'Add --dataset D and --papers DIR, or pass grades files from `citegeist grade`.',
          );
        }
        if (opts.dryRun) {
          await printLeaderboardEstimate(ctx, runFiles, { ...opts, dataset: opts.dataset });
          return;
        }
        const judge = opts.judge ?? ctx.config().judge;
        if (judge) judged.push(rubricJudgeOf(modelId(parseModelString(judge, '--judge'))));
        grades.push(...(await gradeRunFiles(ctx, runFiles, { ...opts, dataset: opts.dataset })));
      } else if (opts.dryRun) {
        ctx.io.out('dry run: grades files only, so nothing to grade and no model calls\n');
        return;
      }
      assertComparable(comparable, opts.minShared);
      // Beside the judged metrics: each judge's agreement with people (its card). Under
      // --require-agreement an uncertified judge's metrics are printed, not ranked.
      const cards = certifyJudges(
        distinctJudges(judged),
        {
          cwd: ctx.io.cwd,
          given: opts.judgeCard ?? [],
          near: files.map((f) => dirname(resolve(ctx.io.cwd, f))),
        },
        opts.requireAgreement,
        'mark',
      );
      printSummary(
        ctx,
        grades,
        opts.seed,
        leaderboardComparison(grades, cards, comparisonOptions(opts, opts.seed)),
      );
    },
  );
};

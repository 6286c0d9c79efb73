import { resolve } from 'node:path';
import { CitegeistError, readTextFile } from '../../core/index.js';
import { type GradeRow, isGradesText, parseGrades } from '../../grade/index.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions } from '../llm-options.js';
import { type GradeOptions, gradeRunFiles, printSummary } from './grade.js';
import { addPaperSourceOptions } from './paper-source.js';

export const registerLeaderboard: RegisterCommand = (program, ctx) => {
  const command = program
    .command('leaderboard')
    .description('compare models side by side (grades files, or run files graded on the fly with --dataset)')
    .argument('<files...>', 'grades JSONL from `citegeist grade`, or runs (JSONL / published JSON)')
    .option('--dataset <file>', 'dataset, needed when run files are given')
    .option('--match <mode>', 'researchqa | span', 'researchqa')
    .option('--quote-mode <mode>', 'researchqa | strict', 'researchqa')
    .option('--seed <n>', 'bootstrap seed', '0')
    .option(
      '--trust-unlocated-evidence',
      "with --judge: count the judge's unlocated claims of support as support",
    );
  addPaperSourceOptions(command);
  addLlmOptions(command, { model: false, judge: true }).action(
    async (files: string[], opts: Omit<GradeOptions, 'dataset'> & { dataset?: string }) => {
      const grades: GradeRow[] = [];
      const runFiles: string[] = [];
      for (const f of files) {
        const path = resolve(ctx.io.cwd, f);
        const text = readTextFile(path, 'grades or run file');
        if (isGradesText(text)) grades.push(...parseGrades(path, text));
        else runFiles.push(f);
      }
      if (runFiles.length > 0) {
        if (!opts.dataset) {
          throw new CitegeistError(
            'LEADERBOARD_NEEDS_DATASET',
            `${runFiles.join(', ')} are run files, which need grading.`,
            'Add --dataset D and --papers DIR, or pass grades files from `citegeist grade`.',
          );
        }
        grades.push(...(await gradeRunFiles(ctx, runFiles, { ...opts, dataset: opts.dataset })));
      }
      printSummary(ctx, grades, Number(opts.seed));
    },
  );
};

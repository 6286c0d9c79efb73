import { resolve } from 'node:path';
import { CitegeistError, parseJsonl, readTextFile } from '../../core/index.js';
import { type GradeRow, GradeRowSchema } from '../../grade/index.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions } from '../llm-options.js';
import { type GradeOptions, gradeRunFiles, printSummary } from './grade.js';
import { addPaperSourceOptions } from './paper-source.js';

/** True when the file's first row looks like a grades row (it carries metric statuses). */
function isGradesFile(text: string): boolean {
  const first = parseJsonl(text.slice(0, 200_000))[0];
  const v = first?.ok ? (first.value as Record<string, unknown>) : null;
  return v !== null && typeof v === 'object' && 'status' in v && 'citation_precision' in v;
}

function readGrades(path: string, text: string): GradeRow[] {
  const rows: GradeRow[] = [];
  for (const entry of parseJsonl(text)) {
    const parsed = entry.ok ? GradeRowSchema.safeParse(entry.value) : null;
    if (!parsed?.success) {
      throw new CitegeistError(
        'BAD_GRADES_ROW',
        `${path} line ${entry.line} is not a grades row.`,
        'Give grades files written by `citegeist grade`, or run files with --dataset.',
      );
    }
    rows.push(parsed.data);
  }
  return rows;
}

export const registerLeaderboard: RegisterCommand = (program, ctx) => {
  const command = program
    .command('leaderboard')
    .description('compare models side by side (grades files, or run files graded on the fly with --dataset)')
    .argument('<files...>', 'grades JSONL from `citegeist grade`, or runs (JSONL / published JSON)')
    .option('--dataset <file>', 'dataset, needed when run files are given')
    .option('--match <mode>', 'researchqa | span', 'researchqa')
    .option('--quote-mode <mode>', 'researchqa | strict', 'researchqa')
    .option('--seed <n>', 'bootstrap seed', '0');
  addPaperSourceOptions(command);
  addLlmOptions(command, { model: false, judge: true }).action(
    async (files: string[], opts: Omit<GradeOptions, 'dataset'> & { dataset?: string }) => {
      const grades: GradeRow[] = [];
      const runFiles: string[] = [];
      for (const f of files) {
        const path = resolve(ctx.io.cwd, f);
        const text = readTextFile(path, 'grades or run file');
        if (isGradesFile(text)) grades.push(...readGrades(path, text));
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

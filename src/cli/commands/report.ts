import { relative } from 'node:path';
import { type ReportOptions, writeReport } from '../../report/index.js';
import type { RegisterCommand } from '../context.js';
import { addJudgeCardOptions } from '../setup/judge-card-options.js';
import { seedOption } from '../setup/option-parsers.js';

export const registerReport: RegisterCommand = (program, ctx) => {
  const command = program
    .command('report')
    .description(
      'write one self-contained HTML report (no network, no external files) of grades, runs, VETSCORE output and ARGUE judgments: leaderboard, every row with its evidence, papers with the cited passages highlighted',
    )
    .option('--grades <files...>', 'grades JSONL written by `citegeist grade` (one or more runs)')
    .option(
      '--runs <files...>',
      'run files (answers and citations; any layout `citegeist grade --run` reads)',
    )
    .option('--dataset <file>', 'dataset the runs answered (questions, expected answers, gold evidence)')
    .option('--corpus <file>', 'corpus with the papers (to locate citations and show them in the paper)')
    .option('--papers <dir>', 'paper files named <paper_id>.pdf|.txt|.md (instead of --corpus)')
    .option('--faithfulness <files...>', 'VETSCORE output of `citegeist grade faithfulness`')
    .option('--judgments <files...>', 'ARGUE judgments JSONL (Auto-ARGUE / ARGUE-viz layout)')
    .option('--nuggets <path>', 'nugget banks for the judgments: a folder of v3/v1 JSON files, or one file')
    .option('--title <text>', 'page title')
    .option(
      '--paper-text <mode>',
      'paper text to embed: auto (whole papers up to 2.5 M characters, else the passages around each highlight) | full | context | none',
      'auto',
    )
    .option('--seed <n>', 'bootstrap seed for the confidence intervals', seedOption('--seed'), 0)
    .option('--out <file>', 'HTML file to write', 'report.html')
    .option(
      '--allow-partial',
      'show grades or runs still being written (their writer holds the lock): their rows so far, with a PARTIAL note',
    );
  addJudgeCardOptions(command, 'judges of the judged metrics', true).action(async (opts: ReportOptions) => {
    const started = performance.now();
    const { path, bytes, data } = await writeReport(opts, ctx.io.cwd);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (ctx.globals().json) {
      ctx.io.out(
        `${JSON.stringify({ out: relative(ctx.io.cwd, path), bytes, runs: data.runs.length, questions: data.questions.length, answers: data.answers.length, papers: data.papers.length, notes: data.notes }, null, 2)}\n`,
      );
      return;
    }
    for (const n of data.notes) ctx.io.err(`note: ${n}\n`);
    const parts = [
      `${data.runs.length} run(s)`,
      `${data.questions.length} question(s)`,
      `${data.answers.length} answer(s)`,
      `${data.papers.length} paper(s)`,
      data.vetscore ? `${data.vetscore.answers.length} VETSCORE answer(s)` : null,
      data.argue ? `${data.argue.reports.length} judged report(s)` : null,
    ].filter(Boolean);
    ctx.io.out(
      `${parts.join(', ')} → ${relative(ctx.io.cwd, path) || path} (${(bytes / 1e6).toFixed(2)} MB, ${seconds} s)\nOpen it in a browser; it needs no network. \`citegeist serve\` serves a workspace's reports and rebuilds them when their inputs change.\n`,
    );
  });
};

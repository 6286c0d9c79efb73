import { resolve } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { loadDocument } from '../../store/index.js';
import { locateQuotes, type MatchMode, type QuoteRow, readQuotes, truncate } from '../../text/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath } from '../corpus-option.js';

function parseMode(value: string): MatchMode {
  if (value === 'researchqa' || value === 'strict') return value;
  throw new CitegeistError(
    'BAD_OPTION',
    `--mode ${quoteValue(value)} is not a quote-matching mode.`,
    'Use --mode researchqa (default) or --mode strict.',
  );
}

/** Characters of the nearest passage printed on a miss. */
const NEAREST_TEXT_CHARS = 160;

export type { QuoteRow };

function formatRow(row: QuoteRow): string {
  const head = `line ${row.line}`.padEnd(9);
  if (row.status === 'failed') return `${head} FAILED   ${row.error}\n`;
  if (row.status === 'matched') {
    const page = row.page === null ? '-' : String(row.page);
    return (
      `${head} matched  ${row.rule!.padEnd(15)} [${row.start}, ${row.end})  page ${page}  ` +
      `section ${row.section === null ? '-' : JSON.stringify(row.section)}\n`
    );
  }
  const similarity = row.similarity === undefined ? '-' : row.similarity.toFixed(3);
  const nearest = row.nearest
    ? `nearest [${row.nearest.start}, ${row.nearest.end}) section ${row.nearest.section === null ? '-' : JSON.stringify(row.nearest.section)}: "${truncate(row.nearest.text, NEAREST_TEXT_CHARS)}"`
    : 'no nearest passage';
  return `${head} missed   similarity ${similarity}  ${nearest}\n`;
}

function summary(rows: QuoteRow[], mode: MatchMode): string {
  const byRule = new Map<string, number>();
  for (const row of rows) if (row.matched) byRule.set(row.rule!, (byRule.get(row.rule!) ?? 0) + 1);
  const matched = rows.filter((r) => r.matched).length;
  const failed = rows.filter((r) => r.status === 'failed').length;
  const rules = [...byRule].map(([rule, n]) => `${rule} ${n}`).join(', ');
  return (
    `matched ${matched}/${rows.length}${rules ? ` (${rules})` : ''}; missed ${rows.length - matched - failed}; ` +
    `failed ${failed}; mode ${mode}\n`
  );
}

export const registerQuote: RegisterCommand = (program, ctx) => {
  program
    .command('quote')
    .description(
      'locate quotes in a paper: rule, span, page and section per quote; the nearest passage on a miss',
    )
    .requiredOption(
      '--paper <doc>',
      'the paper: a corpus document id, or a file (PDF, JATS, TEI, Markdown, text, QASPER or S2ORC JSON)',
    )
    .requiredOption('--quotes <file>', '.txt (one quote per line) or .jsonl (objects with a "quote" field)')
    .option('--mode <mode>', 'researchqa (rules a-d of METHODS 1.2) or strict (a, c and gapped)')
    .option(...CORPUS_OPTION)
    .action(async (options: { paper: string; quotes: string; mode?: string; corpus?: string }) => {
      const mode = parseMode(options.mode ?? ctx.config().quoteMode ?? 'researchqa');
      const doc = await loadDocument(options.paper, {
        corpus: corpusPath(ctx, options.corpus),
        cwd: ctx.io.cwd,
      });
      const inputs = readQuotes(resolve(ctx.io.cwd, options.quotes));
      if (inputs.length === 0) {
        throw new CitegeistError(
          'NO_ROWS',
          `The quotes file ${options.quotes} holds no quote (it is empty or blank).`,
          'Give one quote per line (.txt) or one {"quote": "…"} object per line (.jsonl).',
        );
      }
      const rows = locateQuotes(doc, inputs, mode);
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else {
        for (const row of rows) ctx.io.out(formatRow(row));
        ctx.io.out(summary(rows, mode));
      }
      // Each bad line is coded (the others are still located), and the exit code says some failed.
      for (const row of rows) {
        if (row.status === 'failed') ctx.io.err(`skipped [${row.code}] ${row.error}\n`);
      }
      if (rows.some((r) => r.status === 'failed')) ctx.setExitCode(1);
    });
};

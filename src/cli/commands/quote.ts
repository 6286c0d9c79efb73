import { extname, resolve } from 'node:path';
import { CitegeistError, location, pageAt, quoteValue, sectionAt } from '../../core/index.js';
import { parseJsonl, readTextFile } from '../../io/index.js';
import { loadDocument } from '../../store/index.js';
import { type MatchMode, type MatchRule, matchQuote, preparePaper } from '../../text/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath } from '../corpus-option.js';

/** One quote read from the quotes file, or why its line could not be used. */
type QuoteInput = { line: number; quote: string } | { line: number; error: string };

/** One output row of `citegeist quote` (the `--json` array holds these). */
export interface QuoteRow {
  line: number;
  quote: string | null;
  status: 'matched' | 'missed' | 'failed';
  matched: boolean;
  rule: MatchRule | null;
  start: number | null;
  end: number | null;
  spans: { start: number; end: number }[];
  page: number | null;
  section: string | null;
  similarity?: number;
  /** On a miss: the nearest passage, its page and section. */
  nearest?: { start: number; end: number; text: string; page: number | null; section: string | null };
  error?: string;
}

const NEAREST_JSON_CHARS = 500;
const NEAREST_TEXT_CHARS = 160;

/** Reads quotes: `.txt` one per line (blank lines skipped), `.jsonl` objects with a `quote` field. */
export function readQuotes(path: string): QuoteInput[] {
  const ext = extname(path).toLowerCase();
  if (ext !== '.txt' && ext !== '.jsonl') {
    throw new CitegeistError(
      'UNKNOWN_LAYOUT',
      `The quotes file ${path} has the extension "${ext || '(none)'}".`,
      'Give a .txt file (one quote per line) or a .jsonl file (one {"quote": "..."} object per line).',
    );
  }
  const text = readTextFile(path, 'quotes file');
  if (ext === '.txt') {
    return text
      .split(/\r?\n/)
      .map((quote, i) => ({ line: i + 1, quote }))
      .filter((q) => q.quote.trim() !== '');
  }
  return parseJsonl(text).map((entry): QuoteInput => {
    const where = location(path, entry.line);
    if (!entry.ok) return { line: entry.line, error: `${where}: not valid JSON (${entry.error})` };
    const value = entry.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return {
        line: entry.line,
        error: `${where}: expected an object with a "quote" field, got ${quoteValue(value)}`,
      };
    }
    const quote = (value as Record<string, unknown>).quote;
    if (typeof quote !== 'string') {
      return {
        line: entry.line,
        error: `${location(path, entry.line, 'quote')}: must be a string, got ${quote === undefined ? 'nothing' : quoteValue(quote)}`,
      };
    }
    return { line: entry.line, quote };
  });
}

function parseMode(value: string): MatchMode {
  if (value === 'researchqa' || value === 'strict') return value;
  throw new CitegeistError(
    'BAD_OPTION',
    `--mode ${quoteValue(value)} is not a quote-matching mode.`,
    'Use --mode researchqa (default) or --mode strict.',
  );
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

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
      const paper = preparePaper(doc.text, { skippable: doc.markers });
      const rows = inputs.map((input): QuoteRow => {
        const empty = { start: null, end: null, spans: [], page: null, section: null };
        if ('error' in input) {
          return {
            line: input.line,
            quote: null,
            status: 'failed',
            matched: false,
            rule: null,
            ...empty,
            error: input.error,
          };
        }
        const result = matchQuote(paper, input.quote, { mode });
        const anchor = result.spans[0]?.start;
        const row: QuoteRow = {
          line: input.line,
          quote: input.quote,
          status: result.matched ? 'matched' : 'missed',
          matched: result.matched,
          rule: result.rule,
          ...empty,
          start: result.spans[0]?.start ?? null,
          end: result.spans.at(-1)?.end ?? null,
          spans: result.spans.map((s) => ({ start: s.start, end: s.end })),
          page: anchor === undefined ? null : pageAt(doc, anchor),
          section: anchor === undefined ? null : (sectionAt(doc, anchor)?.heading ?? null),
        };
        if (result.similarity !== undefined) row.similarity = result.similarity;
        if (result.nearest) {
          const { start, end, text } = result.nearest;
          row.nearest = {
            start,
            end,
            text: truncate(text, NEAREST_JSON_CHARS),
            page: pageAt(doc, start),
            section: sectionAt(doc, start)?.heading ?? null,
          };
        }
        return row;
      });
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else {
        for (const row of rows) ctx.io.out(formatRow(row));
        ctx.io.out(summary(rows, mode));
      }
      if (rows.some((r) => r.status === 'failed')) ctx.setExitCode(1);
    });
};

import { extname } from 'node:path';
import { CitegeistError, type Document, location, pageAt, quoteValue, sectionAt } from '../core/index.js';
import { parseJsonl, readTextFile } from '../io/index.js';
import { type MatchMode, type MatchRule, matchQuote } from './match-quote.js';
import { preparePaper } from './prepare-paper.js';

/** One quote read from the quotes file, or why its line could not be used. */
export type QuoteInput =
  | { line: number; quote: string }
  | { line: number; error: string; code: 'INVALID_JSON' | 'INVALID_INPUT' };

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
  /** The error code of a failed line (INVALID_JSON, INVALID_INPUT). */
  code?: string;
}

/** Characters of the nearest passage kept in a row (`--json`). */
const NEAREST_JSON_CHARS = 500;

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
    if (!entry.ok)
      return { line: entry.line, code: 'INVALID_JSON', error: `${where}: not valid JSON (${entry.error})` };
    const value = entry.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return {
        line: entry.line,
        code: 'INVALID_INPUT',
        error: `${where}: expected an object with a "quote" field, got ${quoteValue(value)}`,
      };
    }
    const quote = (value as Record<string, unknown>).quote;
    if (typeof quote !== 'string') {
      return {
        line: entry.line,
        code: 'INVALID_INPUT',
        error: `${location(path, entry.line, 'quote')}: must be a string, got ${quote === undefined ? 'nothing' : quoteValue(quote)}`,
      };
    }
    return { line: entry.line, quote };
  });
}

/**
 * Locates each quote in the paper (`citegeist quote`): rule, span, page and section when it
 * matches, the nearest passage when it misses; a line that could not be read is a failed row.
 */
export function locateQuotes(doc: Document, inputs: readonly QuoteInput[], mode: MatchMode): QuoteRow[] {
  const paper = preparePaper(doc.text, { skippable: doc.markers });
  return inputs.map((input): QuoteRow => {
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
        code: input.code,
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
}

/** The text on one line, cut to `max` characters. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

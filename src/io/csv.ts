import { CsvError, parse } from 'csv-parse/sync';
import { CitegeistError, location } from '../core/index.js';

/** One data record of a CSV file: its 1-based starting line and its fields by header name. */
export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

/**
 * Parses RFC 4180 CSV with csv-parse: quoted fields with doubled quotes, separators and line breaks
 * inside quotes, CRLF, LF or CR line ends, an optional BOM. The first record is the header (names
 * trimmed); blank lines are skipped. Every record must have the header's field count: a short or
 * long row, an unterminated quote or a stray quote throws INVALID_CSV naming the file and line
 * (`error.where`), since padding or dropping fields would shift values into the wrong column.
 */
export function parseCsv(
  text: string,
  file = 'CSV',
  separator = ',',
): { header: string[]; records: CsvRecord[] } {
  let lastLine = 0;
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      bom: true,
      delimiter: separator,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      info: true,
      on_record: (record, context) => {
        lastLine = context.lines;
        return record;
      },
    }) as unknown as typeof rows; // csv-parse types do not model `info: true` records
  } catch (error) {
    if (error instanceof CsvError) throw csvError(error, text, file, lastLine);
    throw error;
  }
  // A record with one blank field is a blank line (spaces only), as in the hand-written reader.
  const records = rows
    .filter((r) => !(r.record.length === 1 && r.record[0]?.trim() === ''))
    .map((r) => ({ line: r.info.lines - lineBreaks(r.record), fields: r.record }));
  const first = records.shift();
  if (!first) return { header: [], records: [] };
  const header = first.fields.map((h) => h.trim());
  return {
    header,
    records: records.map((r) => ({
      line: r.line,
      values: Object.fromEntries(header.map((h, i) => [h, r.fields[i] ?? ''])),
    })),
  };
}

/** Line breaks inside a record's (quoted) fields: its first line is its last minus these. */
function lineBreaks(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) n += f.match(/\r\n|\r|\n/g)?.length ?? 0;
  return n;
}

/** The first line at or after `from` (1-based) that holds more than white space. */
function firstFilledLine(text: string, from: number): number {
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = from - 1; i < lines.length; i++) if (lines[i]?.trim() !== '') return i + 1;
  return from;
}

/** csv-parse's error as INVALID_CSV, at the line where the bad record starts. */
function csvError(error: CsvError, text: string, file: string, lastLine: number): CitegeistError {
  const context = error as CsvError & { lines?: number; record?: string[] };
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    // The open record starts on the first non-blank line after the last complete record.
    const line = firstFilledLine(text, lastLine + 1);
    return new CitegeistError(
      'INVALID_CSV',
      `${location(file, line)}: a quoted field is never closed.`,
      'Close the quote (a quote inside a quoted field is written "").',
      { where: { file, line } },
    );
  }
  const end = context.lines ?? lastLine + 1;
  const line = context.record ? end - lineBreaks(context.record) : end;
  const counts = /expect (\d+), got (\d+)/.exec(error.message);
  if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && counts) {
    return new CitegeistError(
      'INVALID_CSV',
      `${location(file, line)}: ${counts[2]} field(s) where the header has ${counts[1]}.`,
      'Give every row one field per header column (quote a field that holds the separator).',
      { where: { file, line } },
    );
  }
  return new CitegeistError(
    'INVALID_CSV',
    `${location(file, line)}: a quote in an unquoted field, or text after a closing quote (${error.code}).`,
    'Quote a field that holds a quote, a separator or a line break, and write a quote inside it as "".',
    { where: { file, line } },
  );
}

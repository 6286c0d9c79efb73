import { CitegeistError } from '../core/index.js';

/** One data record of a CSV file: its 1-based starting line and its fields by header name. */
export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

/**
 * Parses RFC 4180 CSV: quoted fields with doubled quotes, separators and line breaks inside quotes,
 * CRLF or LF line ends, an optional BOM. The first record is the header (names trimmed). Blank lines
 * are skipped; a record with a different field count is returned with its fields by position and
 * missing ones empty. Throws a CitegeistError naming the line of an unterminated quote.
 */
export function parseCsv(
  text: string,
  file = 'CSV',
  separator = ',',
): { header: string[]; records: CsvRecord[] } {
  const raw = splitRecords(text.replace(/^\uFEFF/, ''), file, separator);
  const first = raw.shift();
  if (!first) return { header: [], records: [] };
  const header = first.fields.map((h) => h.trim());
  const records = raw.map((r) => ({
    line: r.line,
    values: Object.fromEntries(header.map((h, i) => [h, r.fields[i] ?? ''])),
  }));
  return { header, records };
}

function splitRecords(text: string, file: string, sep: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let quoteLine = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0]?.trim() === '')) out.push({ line: start, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      quoted = true;
      quoteLine = line;
      field = '';
    } else if (ch === sep) {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else field += ch;
  }
  if (quoted) {
    throw new CitegeistError(
      'INVALID_CSV',
      `${file} line ${quoteLine}: a quoted field is never closed.`,
      'Close the quote (a quote inside a quoted field is written "").',
    );
  }
  if (field !== '' || fields.length > 0) endRecord();
  return out;
}

import { CitegeistError, parseJsonl, readTextFile } from '../core/index.js';
import { type GradeRow, GradeRowSchema } from './grade-row.js';

/** True when the text's first row looks like a grades row (it carries metric statuses). */
export function isGradesText(text: string): boolean {
  const first = parseJsonl(text.slice(0, 200_000))[0];
  const v = first?.ok ? (first.value as Record<string, unknown>) : null;
  return v !== null && typeof v === 'object' && 'status' in v && 'citation_precision' in v;
}

/** Parses grades JSONL written by `citegeist grade`; a bad line is an error naming it. */
export function parseGrades(path: string, text: string): GradeRow[] {
  const rows: GradeRow[] = [];
  for (const entry of parseJsonl(text)) {
    const parsed = entry.ok ? GradeRowSchema.safeParse(entry.value) : null;
    if (!parsed?.success) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${path} line ${entry.line} is not a grades row.`,
        'Give grades files written by `citegeist grade`, or run files with --dataset.',
      );
    }
    rows.push(parsed.data);
  }
  return rows;
}

/** Reads a grades JSONL file. */
export function readGrades(path: string): GradeRow[] {
  return parseGrades(path, readTextFile(path, 'grades file'));
}

import { CitegeistError, isManifestRecord, type RunManifest } from '../../core/index.js';
import { parseJsonl, readTextFile, takeManifest } from '../../io/index.js';
import { type GradeRow, GradeRowSchema } from './grade-row.js';

/** True when the text starts with a grades manifest, or its first row looks like a grades row. */
export function isGradesText(text: string): boolean {
  const first = parseJsonl(text.slice(0, 200_000))[0];
  const v = first?.ok ? (first.value as Record<string, unknown>) : null;
  if (isManifestRecord(v)) return (v as { kind?: unknown }).kind === 'grades';
  return v !== null && typeof v === 'object' && 'status' in v && 'citation_precision' in v;
}

/**
 * Parses grades JSONL written by `citegeist grade` (its manifest, then one row per line); a bad
 * line is an error naming it. Rows without a label get the manifest's.
 */
export function parseGradesFile(
  path: string,
  text: string,
): { manifest: RunManifest | null; rows: GradeRow[] } {
  const rows: GradeRow[] = [];
  const { manifest, rows: lines } = takeManifest(parseJsonl(text), path, false);
  for (const entry of lines) {
    const parsed = entry.ok ? GradeRowSchema.safeParse(entry.value) : null;
    if (!parsed?.success) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${path} line ${entry.line} is not a grades row.`,
        'Give grades files written by `citegeist grade`, or run files with --dataset.',
      );
    }
    rows.push(
      manifest && parsed.data.label === null ? { ...parsed.data, label: manifest.label } : parsed.data,
    );
  }
  return { manifest, rows };
}

/** The rows of a grades file (see `parseGradesFile`). */
export function parseGrades(path: string, text: string): GradeRow[] {
  return parseGradesFile(path, text).rows;
}

/** Reads a grades JSONL file. */
export function readGrades(path: string): GradeRow[] {
  return parseGrades(path, readTextFile(path, 'grades file'));
}

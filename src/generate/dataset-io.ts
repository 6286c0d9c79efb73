import { writeFileSync } from 'node:fs';
import {
  CitegeistError,
  type DatasetRow,
  DatasetRowSchema,
  describeIssues,
  location,
  parseJsonl,
  readTextFile,
} from '../core/index.js';

/** A row that could not be read: where it was and why. */
export interface DatasetRowError {
  /** 1-based line (JSONL) or 0-based index in `rows` (JSON). */
  where: string;
  message: string;
  /** Set when the row repeats an earlier row_id (the first one is kept). */
  duplicate?: true;
}

export interface DatasetReadResult {
  format: 'json' | 'jsonl';
  rows: DatasetRow[];
  /** Rows that failed to parse or validate; the others are still returned. */
  errors: DatasetRowError[];
  /**
   * Rows read without a field that changes their scores, by field (`expected_references`: scored as
   * an empty list, as the published code does; commands warn and count them).
   */
  missingFields: Record<string, string[]>;
  /** `version` and `created_at` of an `eval_dataset.json` envelope. */
  version?: string;
  createdAt?: string;
}

/**
 * Reads a dataset: the published ResearchQA `eval_dataset.json` envelope
 * (`{version, created_at, total_rows, rows}`), a bare JSON list of rows, or JSONL (one row per
 * line). Bad rows are returned as errors naming file and line (or index) and field; they never
 * abort the read. A duplicate `row_id` is an error for the later row.
 */
export function readDataset(path: string): DatasetReadResult {
  const text = readTextFile(path, 'dataset');
  const lower = path.toLowerCase();
  const trimmed = text.trimStart();
  const looksJson = lower.endsWith('.jsonl')
    ? false
    : lower.endsWith('.json') || trimmed.startsWith('[') || hasRowsList(trimmed);
  return looksJson ? readJsonDataset(path, text) : readJsonlDataset(path, text);
}

function hasRowsList(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    return Array.isArray((JSON.parse(text) as { rows?: unknown }).rows);
  } catch {
    return false;
  }
}

function readJsonDataset(path: string, text: string): DatasetReadResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CitegeistError(
      'INVALID_JSON',
      `The dataset ${path} starts like JSON but does not parse (${(error as Error).message}).`,
      'Fix the JSON, or give one row per line (JSONL).',
    );
  }
  const envelope = Array.isArray(data) ? { rows: data } : (data as Record<string, unknown>);
  if (!Array.isArray(envelope.rows)) {
    throw new CitegeistError(
      'UNKNOWN_LAYOUT',
      `The dataset ${path} is a JSON object without a "rows" list.`,
      'Use the eval_dataset.json layout {version, created_at, total_rows, rows: [...]} or a JSON list.',
    );
  }
  const out: DatasetReadResult = { format: 'json', rows: [], errors: [], missingFields: {} };
  if (typeof envelope.version === 'string') out.version = envelope.version;
  if (typeof envelope.created_at === 'string') out.createdAt = envelope.created_at;
  const seen = new Set<string>();
  for (const [i, value] of envelope.rows.entries()) addRow(out, seen, value, `${path} rows[${i}]`);
  return out;
}

function readJsonlDataset(path: string, text: string): DatasetReadResult {
  const out: DatasetReadResult = { format: 'jsonl', rows: [], errors: [], missingFields: {} };
  const seen = new Set<string>();
  for (const entry of parseJsonl(text)) {
    const where = location(path, entry.line);
    if (!entry.ok) out.errors.push({ where, message: `not JSON (${entry.error})` });
    else addRow(out, seen, entry.value, where);
  }
  return out;
}

function addRow(out: DatasetReadResult, seen: Set<string>, value: unknown, where: string): void {
  const result = DatasetRowSchema.safeParse(value);
  if (!result.success) {
    out.errors.push({ where, message: `not a dataset row: ${describeIssues(result.error)}` });
    return;
  }
  if (seen.has(result.data.row_id)) {
    out.errors.push({
      where,
      message: `duplicate row_id "${result.data.row_id}" (the first one is kept)`,
      duplicate: true,
    });
    return;
  }
  seen.add(result.data.row_id);
  // Adversarial rows have no evidence to cover (coverage does not apply), so only others count.
  if (result.data.question_type !== 'adversarial' && !('expected_references' in (value as object))) {
    const ids = out.missingFields.expected_references ?? [];
    ids.push(result.data.row_id);
    out.missingFields.expected_references = ids;
  }
  out.rows.push(result.data);
}

/**
 * Reads a dataset and throws when any row is bad (for commands that need the whole dataset), with
 * the first few errors listed.
 */
export function readDatasetStrict(path: string): DatasetRow[] {
  const result = readDataset(path);
  if (result.errors.length > 0) {
    const shown = result.errors.slice(0, 5).map((e) => `${e.where}: ${e.message}`);
    throw new CitegeistError(
      'DATASET_INVALID',
      `${result.errors.length} row(s) of ${path} are invalid: ${shown.join('; ')}.`,
      'Fix those rows (field names follow the ResearchQA eval_dataset.json layout).',
    );
  }
  return result.rows;
}

/** The published `eval_dataset.json` text for `rows`. */
export function formatEvalDatasetJson(
  rows: readonly DatasetRow[],
  meta: { version?: string; createdAt?: string } = {},
): string {
  const envelope = {
    version: meta.version ?? '1.0',
    created_at: meta.createdAt ?? new Date().toISOString(),
    total_rows: rows.length,
    rows,
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** JSONL text for `rows` (one row per line). */
export function formatDatasetJsonl(rows: readonly DatasetRow[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Writes `rows` as `.json` (eval_dataset.json envelope) or JSONL, chosen by the file extension. */
export function writeDataset(
  path: string,
  rows: readonly DatasetRow[],
  meta: { version?: string; createdAt?: string } = {},
): 'json' | 'jsonl' {
  const format = path.toLowerCase().endsWith('.json') ? 'json' : 'jsonl';
  writeFileSync(path, format === 'json' ? formatEvalDatasetJson(rows, meta) : formatDatasetJsonl(rows));
  return format;
}

import {
  CitegeistError,
  type DatasetRow,
  DatasetRowSchema,
  describeIssues,
  location,
  parseJsonl,
  readTextFile,
  writeFileAtomic,
} from '../core/index.js';
import {
  type DatasetLayout,
  evidenceKind,
  FLAT_LAYOUT_WARNING,
  fromFlatRow,
  fromHubRow,
  isHubRow,
  toPublishedRow,
} from './dataset-layouts.js';

/** A row that could not be read: where it was and why. */
export interface DatasetRowError {
  /** 1-based line (JSONL) or 0-based index in `rows` (JSON). */
  where: string;
  message: string;
  /** Set when the row repeats an earlier row_id (the first one is kept). */
  duplicate?: true;
}

export interface DatasetReadResult {
  format: 'json' | 'jsonl' | 'parquet';
  /** The layout seen (the published envelope, a JSON list, JSONL, or the hub export). */
  layout: DatasetLayout;
  /** `groups` (published), or `flat`: the earlier generator's list of quotes (see `warnings`). */
  evidenceLayout: 'groups' | 'flat';
  rows: DatasetRow[];
  /** Rows that failed to parse or validate; the others are still returned. */
  errors: DatasetRowError[];
  /**
   * Rows read without a field that changes their scores, by field (`expected_references`: scored as
   * an empty list, as the published code does; commands warn and count them).
   */
  missingFields: Record<string, string[]>;
  /** Things the user should know about how the file was read (e.g. the earlier flat layout). */
  warnings: string[];
  /** `version` and `created_at` of an `eval_dataset.json` envelope. */
  version?: string;
  createdAt?: string;
  /** The envelope's other top-level fields (`source_manifest`, `errors`, …), kept for writing. */
  envelope?: Record<string, unknown>;
}

/** One value read from a file, and where it was. */
export interface DatasetEntry {
  where: string;
  value: unknown;
}

/**
 * Reads a dataset: the published ResearchQA `eval_dataset.json` envelope
 * (`{version, created_at, source_manifest, total_rows, total_papers_processed, rows, errors}`), a
 * bare JSON list of rows, JSONL (one row per line), or the hub export of any of them (`metadata_*`
 * columns); Parquet through `loadDataset`. Bad rows are returned as errors naming file and line (or
 * index) and field; they never abort the read. A duplicate `row_id` is an error for the later row.
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
  const entries = envelope.rows.map((value, i) => ({ where: `${path} rows[${i}]`, value }));
  const out = datasetFromEntries(
    path,
    entries,
    'json',
    Array.isArray(data) ? 'JSON list' : 'eval_dataset.json',
  );
  if (typeof envelope.version === 'string') out.version = envelope.version;
  if (typeof envelope.created_at === 'string') out.createdAt = envelope.created_at;
  if (!Array.isArray(data)) {
    const { rows: _rows, version: _v, created_at: _c, ...rest } = envelope;
    out.envelope = rest;
  }
  return out;
}

function readJsonlDataset(path: string, text: string): DatasetReadResult {
  const entries: DatasetEntry[] = [];
  const errors: DatasetRowError[] = [];
  for (const entry of parseJsonl(text)) {
    const where = location(path, entry.line);
    if (!entry.ok) errors.push({ where, message: `not JSON (${entry.error})` });
    else entries.push({ where, value: entry.value });
  }
  const out = datasetFromEntries(path, entries, 'jsonl', 'JSONL');
  out.errors.unshift(...errors);
  return out;
}

/**
 * Validates the values of a dataset file as rows: the hub export's `metadata_*` columns are folded
 * back into `metadata`, and a file whose `expected_references` are flat lists of quotes is read in
 * that earlier layout (with a warning); a row mixing the two layouts is an error.
 */
export function datasetFromEntries(
  path: string,
  entries: readonly DatasetEntry[],
  format: DatasetReadResult['format'],
  layout: DatasetLayout,
): DatasetReadResult {
  const hub = entries.some((e) => isHubRow(e.value));
  if (hub && layout !== 'hub export (Parquet)')
    layout = format === 'jsonl' ? 'hub export (JSONL)' : 'hub export (JSON)';
  const kinds = entries.map((e) => evidenceKind(e.value));
  const flat = kinds.includes('flat');
  const out: DatasetReadResult = {
    format,
    layout,
    evidenceLayout: flat ? 'flat' : 'groups',
    rows: [],
    errors: [],
    warnings: flat ? [`${path}: ${FLAT_LAYOUT_WARNING}`] : [],
    missingFields: {},
  };
  const seen = new Set<string>();
  for (const [i, { where, value }] of entries.entries()) {
    let row = value;
    if (hub && isHubRow(row)) row = fromHubRow(row as Record<string, unknown>, format === 'parquet');
    const kind = kinds[i];
    if (kind === 'mixed' || (flat && kind === 'groups')) {
      out.errors.push({
        where,
        message: `field "expected_references": mixes quotes and evidence groups (the file uses the ${flat ? 'flat list of quotes' : 'evidence groups'})`,
      });
      continue;
    }
    if (flat && typeof row === 'object' && row !== null) row = fromFlatRow(row as Record<string, unknown>);
    addRow(out, seen, row, where);
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

/** Throws DATASET_INVALID when any row of a read dataset is bad, with the first few errors. */
export function requireValidRows(path: string, result: DatasetReadResult): DatasetReadResult {
  if (result.errors.length > 0) {
    const shown = result.errors.slice(0, 5).map((e) => `${e.where}: ${e.message}`);
    throw new CitegeistError(
      'DATASET_INVALID',
      `${result.errors.length} row(s) of ${path} are invalid: ${shown.join('; ')}.`,
      'Fix those rows (field names follow the ResearchQA eval_dataset.json layout).',
    );
  }
  return result;
}

/**
 * Reads a dataset and throws when any row is bad (for commands that need the whole dataset), with
 * the first few errors listed.
 */
export function readDatasetStrict(path: string): DatasetRow[] {
  return requireValidRows(path, readDataset(path)).rows;
}

export interface DatasetMeta {
  version?: string | undefined;
  createdAt?: string | undefined;
  /** Other top-level fields of the envelope read (`source_manifest`, `errors`, …). */
  envelope?: Record<string, unknown> | undefined;
}

/** What of a read dataset's envelope to write back. */
export function datasetMeta(read: DatasetReadResult): DatasetMeta {
  return { version: read.version, createdAt: read.createdAt, envelope: read.envelope };
}

/**
 * The published `eval_dataset.json` text for `rows`: the generator's envelope (`save_dataset`
 * recomputes `total_rows` and `total_papers_processed`), fields it does not know kept after.
 */
export function formatEvalDatasetJson(rows: readonly DatasetRow[], meta: DatasetMeta = {}): string {
  const {
    source_manifest = null,
    errors = [],
    total_rows: _t,
    total_papers_processed: _p,
    ...extra
  } = meta.envelope ?? {};
  const envelope = {
    version: meta.version ?? '1.0',
    created_at: meta.createdAt ?? new Date().toISOString(),
    source_manifest,
    total_rows: rows.length,
    total_papers_processed: new Set(rows.map((r) => r.paper_id)).size,
    rows: rows.map(toPublishedRow),
    errors,
    ...extra,
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** JSONL text for `rows` (one row per line). */
export function formatDatasetJsonl(rows: readonly DatasetRow[]): string {
  return rows.map((r) => `${JSON.stringify(toPublishedRow(r))}\n`).join('');
}

/** Writes `rows` as `.json` (eval_dataset.json envelope) or JSONL, chosen by the file extension. */
export function writeDataset(
  path: string,
  rows: readonly DatasetRow[],
  meta: DatasetMeta = {},
): 'json' | 'jsonl' {
  const format = path.toLowerCase().endsWith('.json') ? 'json' : 'jsonl';
  writeFileAtomic(path, format === 'json' ? formatEvalDatasetJson(rows, meta) : formatDatasetJsonl(rows));
  return format;
}

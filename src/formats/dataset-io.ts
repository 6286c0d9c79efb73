import {
  CitegeistError,
  type DatasetRow,
  DatasetRowSchema,
  describeIssues,
  location,
} from '../core/index.js';
import {
  type JsonRowsFile,
  JsonSyntaxError,
  jsonSyntaxProblem,
  type RowPlace,
  scanJsonRows,
  writeFileAtomic,
} from '../io/index.js';
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
  /** The sha256 of the file's bytes as read (for a manifest, without reading the file again). */
  sha256: string;
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
  const shape = datasetShape(path);
  const entries: DatasetEntry[] = [];
  const errors: DatasetRowError[] = [];
  const file = scanDataset(path, shape, (value, where) => {
    if (value instanceof Error) errors.push({ where, message: `not JSON (${value.message})` });
    else entries.push({ where, value });
  });
  const out = datasetFromEntries(
    path,
    entries,
    shape === 'lines' ? 'jsonl' : 'json',
    layoutOf(file),
    file.sha256,
  );
  out.errors.unshift(...errors);
  if (file.layout === 'envelope') {
    const { version, created_at: createdAt, ...rest } = file.fields;
    if (typeof version === 'string') out.version = version;
    if (typeof createdAt === 'string') out.createdAt = createdAt;
    out.envelope = rest;
  }
  return out;
}

/** How a dataset file is laid out: JSON (a list or the envelope) or JSONL, by extension, else by content. */
export function datasetShape(path: string): 'json' | 'lines' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.jsonl')) return 'lines';
  if (lower.endsWith('.json')) return 'json';
  // Another extension: JSON when the whole file is a list, or an object with a "rows" list.
  try {
    return scanJsonRows(path, 'json', () => {}, 'dataset').hasRows ? 'json' : 'lines';
  } catch (error) {
    if (error instanceof JsonSyntaxError) return 'lines';
    throw error;
  }
}

/**
 * Reads a dataset file's rows one at a time, parsed (or the parse error of a JSONL line), with
 * where each is and its place in the file; throws INVALID_JSON or UNKNOWN_LAYOUT for a JSON
 * file that does not parse or has no "rows" list.
 */
export function scanDataset(
  path: string,
  shape: 'json' | 'lines',
  visit: (value: unknown, where: string, place: RowPlace) => void,
): JsonRowsFile {
  let file: JsonRowsFile;
  // The row number (non-blank lines so far) beside the line: they differ after blank lines.
  let row = 0;
  try {
    file = scanJsonRows(
      path,
      shape,
      (text, place) => {
        if (text.trim() !== '') row++;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          if (shape === 'json') throw new JsonSyntaxError((error as Error).message);
          value = new Error(`row ${row}, ${jsonSyntaxProblem(error, text)}`);
        }
        const where = shape === 'lines' ? location(path, place.index) : `${path} rows[${place.index}]`;
        visit(value, where, place);
      },
      'dataset',
    );
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new CitegeistError(
      'INVALID_JSON',
      `The dataset ${path} starts like JSON but does not parse (${error.message}).`,
      'Fix the JSON, or give one row per line (JSONL).',
    );
  }
  if (file.layout === 'envelope' && !file.hasRows) {
    throw new CitegeistError(
      'UNKNOWN_LAYOUT',
      `The dataset ${path} is a JSON object without a "rows" list.`,
      'Use the eval_dataset.json layout {version, created_at, total_rows, rows: [...]} or a JSON list.',
    );
  }
  return file;
}

/** The layout a scanned dataset file had (before any hub-export rows are seen). */
export function layoutOf(file: JsonRowsFile): DatasetLayout {
  return file.layout === 'lines' ? 'JSONL' : file.layout === 'list' ? 'JSON list' : 'eval_dataset.json';
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
  sha256: string,
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
    sha256,
  };
  const seen = new Set<string>();
  for (const [i, { where, value }] of entries.entries()) {
    const row = keepRow(out, seen, where, entryToRow(value, kinds[i]!, { hub, flat }, format === 'parquet'));
    if (row) out.rows.push(row);
  }
  return out;
}

/**
 * Files one read entry: its error, or a repeated row_id (an error for the later row: the first one
 * is kept), or the row to keep, noted when it has no `expected_references` (scored as an empty
 * list, as the published code does; commands warn and count it).
 */
export function keepRow(
  out: Pick<DatasetReadResult, 'errors' | 'missingFields'>,
  seen: Set<string>,
  where: string,
  result: ReturnType<typeof entryToRow>,
): DatasetRow | undefined {
  if ('error' in result) {
    out.errors.push({ where, message: result.error });
    return undefined;
  }
  const { row } = result;
  if (seen.has(row.row_id)) {
    out.errors.push({
      where,
      message: `duplicate row_id "${row.row_id}" (the first one is kept)`,
      duplicate: true,
    });
    return undefined;
  }
  seen.add(row.row_id);
  // Adversarial rows have no evidence to cover (coverage does not apply), so only others count.
  if (!result.hasReferences && row.question_type !== 'adversarial') {
    const ids = out.missingFields.expected_references ?? [];
    ids.push(row.row_id);
    out.missingFields.expected_references = ids;
  }
  return row;
}

/** What of the whole file a row's reading depends on: any hub-export row, any flat-layout row. */
export interface FileLayoutFlags {
  hub: boolean;
  flat: boolean;
}

/** One value of a dataset file as a row (or why it is not one), given the file's layout flags. */
export function entryToRow(
  value: unknown,
  kind: ReturnType<typeof evidenceKind>,
  flags: FileLayoutFlags,
  parquet: boolean,
): { row: DatasetRow; hasReferences: boolean } | { error: string } {
  let row = value;
  if (flags.hub && isHubRow(row)) row = fromHubRow(row as Record<string, unknown>, parquet);
  if (kind === 'mixed' || (flags.flat && kind === 'groups')) {
    return {
      error: `field "expected_references": mixes quotes and evidence groups (the file uses the ${flags.flat ? 'flat list of quotes' : 'evidence groups'})`,
    };
  }
  if (flags.flat && typeof row === 'object' && row !== null)
    row = fromFlatRow(row as Record<string, unknown>);
  const result = DatasetRowSchema.safeParse(row);
  if (!result.success) return { error: `not a dataset row: ${describeIssues(result.error)}` };
  return { row: result.data, hasReferences: 'expected_references' in (row as object) };
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

/**
 * A dataset read for grading without holding its rows: every row is read and validated exactly as
 * `readDataset` does (a bad row is an error), but only the fields grading needs for every row are
 * kept, with the row's place in the file; the whole row is read again when it is graded. A 50,000-row dataset
 * with long evidence (170 MB of JSON) is then graded in a few megabytes instead of ~400.
 *
 * How a row reads depends on the whole file (any hub-export row makes it a hub export, any
 * flat-layout row the earlier layout): the file is read assuming what it has seen so far, and read
 * again from the start in the rare file whose first such row comes after others.
 */
import { CitegeistError, type DatasetRow, type DatasetRowRef, type QuestionType } from '../core/index.js';
import { RowFile, type RowPlace, rowChangedError } from '../io/index.js';
import {
  type DatasetReadResult,
  datasetShape,
  entryToRow,
  type FileLayoutFlags,
  keepRow,
  layoutOf,
  scanDataset,
} from './dataset-io.js';
import { evidenceKind, FLAT_LAYOUT_WARNING, isHubRow } from './dataset-layouts.js';
import { loadDataset } from './dataset-parquet.js';

/** A read dataset whose rows are references (`DatasetRowRef`); `close()` releases its file. */
export interface DatasetIndex extends Omit<DatasetReadResult, 'rows'> {
  rows: DatasetRowRef[];
  close(): void;
}

/** How the rows of one indexed file are read again (set once the whole file has been read). */
interface RowReader {
  read: ((place: RowPlace) => DatasetRow) | null;
}

/** A row reference (a class: object literals built by spreading took several times the memory). */
class StoredRowRef implements DatasetRowRef {
  readonly row_id: string;
  readonly paper_id: string;
  readonly question_type: QuestionType;
  readonly domain: string;
  readonly blankQuestion: boolean;

  constructor(
    row: DatasetRow,
    readonly alternatives: number,
    private readonly place: RowPlace,
    private readonly reader: RowReader,
  ) {
    this.row_id = row.row_id;
    this.paper_id = row.paper_id;
    this.question_type = row.question_type;
    this.domain = row.domain;
    this.blankQuestion = row.question.trim() === '';
  }

  load(): DatasetRow {
    if (!this.reader.read) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        'A dataset row was loaded while its index was still being read.',
        'Load rows from the index indexDataset returned.',
      );
    }
    return this.reader.read(this.place);
  }
}

/** A row in memory as a reference (Parquet datasets, and callers that already hold their rows). */
export function rowRef(row: DatasetRow): DatasetRowRef {
  return {
    row_id: row.row_id,
    paper_id: row.paper_id,
    question_type: row.question_type,
    domain: row.domain,
    alternatives: row.expected_references.reduce((n, g) => n + g.alternatives.length, 0),
    blankQuestion: row.question.trim() === '',
    load: () => row,
  };
}

/**
 * Indexes a JSON or JSONL dataset (see the module comment); bad rows are returned as errors, as
 * `readDataset` returns them.
 */
export function indexDataset(path: string): DatasetIndex {
  const shape = datasetShape(path);
  const format = shape === 'lines' ? 'jsonl' : 'json';
  const flags: FileLayoutFlags = { hub: false, flat: false };
  for (;;) {
    const reader: RowReader = { read: null };
    const out = indexWith(path, shape, flags, reader);
    if (!out.stale) {
      const rowFile = new RowFile(path);
      reader.read = (place: RowPlace): DatasetRow => {
        const value = JSON.parse(rowFile.text(place)) as unknown;
        const result = entryToRow(value, evidenceKind(value), flags, false);
        if ('error' in result) throw rowChangedError(path, place, shape === 'lines', result.error);
        return result.row;
      };
      const rows = out.refs;
      let layout = layoutOf(out.file);
      if (flags.hub) layout = format === 'jsonl' ? 'hub export (JSONL)' : 'hub export (JSON)';
      const index: DatasetIndex = {
        format,
        layout,
        evidenceLayout: flags.flat ? 'flat' : 'groups',
        rows,
        errors: out.errors,
        missingFields: out.missingFields,
        warnings: flags.flat ? [`${path}: ${FLAT_LAYOUT_WARNING}`] : [],
        sha256: out.file.sha256,
        close: () => rowFile.close(),
      };
      if (out.file.layout === 'envelope') {
        const { version, created_at: createdAt, ...rest } = out.file.fields;
        if (typeof version === 'string') index.version = version;
        if (typeof createdAt === 'string') index.createdAt = createdAt;
        index.envelope = rest;
      }
      return index;
    }
    // A hub-export or flat-layout row came after others: read again knowing it.
  }
}

/** One reading of the file under `flags` (which it sets when it meets their first row). */
function indexWith(path: string, shape: 'json' | 'lines', flags: FileLayoutFlags, reader: RowReader) {
  const refs: DatasetRowRef[] = [];
  const read: Pick<DatasetReadResult, 'errors' | 'missingFields'> = { errors: [], missingFields: {} };
  const seen = new Set<string>();
  let stale = false;
  const file = scanDataset(path, shape, (value, where, place) => {
    if (stale) return;
    if (value instanceof Error) {
      read.errors.push({ where, message: `not JSON (${value.message})` });
      return;
    }
    const kind = evidenceKind(value);
    const hub = isHubRow(value);
    if ((hub && !flags.hub) || (kind === 'flat' && !flags.flat)) {
      // Rows read so far were read without knowing this: read the file again.
      stale = refs.length > 0 || read.errors.length > 0;
      flags.hub ||= hub;
      flags.flat ||= kind === 'flat';
      if (stale) return;
    }
    const row = keepRow(read, seen, where, entryToRow(value, kind, flags, false));
    if (row) {
      const alternatives = row.expected_references.reduce((n, g) => n + g.alternatives.length, 0);
      refs.push(new StoredRowRef(row, alternatives, place, reader));
    }
  });
  return { refs, errors: read.errors, missingFields: read.missingFields, file, stale };
}

/**
 * A dataset in any layout as references, bad rows returned as errors (as `loadDataset` returns
 * them): JSON and JSONL are indexed, Parquet is read whole.
 */
export async function loadDatasetIndex(path: string): Promise<DatasetIndex> {
  if (path.toLowerCase().endsWith('.parquet')) {
    const read = await loadDataset(path);
    return { ...read, rows: read.rows.map(rowRef), close: () => {} };
  }
  return indexDataset(path);
}

import { basename } from 'node:path';
import {
  CitegeistError,
  describeIssues,
  location,
  type RunManifest,
  type RunRow,
  RunRowSchema,
} from '../core/index.js';
import {
  firstContentChar,
  type JsonRowsFile,
  readJsonlFile,
  scanJsonRows,
  takeManifest,
} from '../io/index.js';

export interface RunReadResult {
  format: 'citegeist' | 'published';
  rows: RunRow[];
  errors: { where: string; message: string }[];
  /** The model(s) found in the rows. */
  models: string[];
  /**
   * The published results file's own fields (`run_id`, `timestamp`, `llm_provider`, `model_name`,
   * `mode`), when the run was one.
   */
  published?: Record<string, unknown>;
  /** The run's manifest (null for published results and runs from before manifests). */
  manifest: RunManifest | null;
  /**
   * Rows read without a field that changes their scores, by field: `citations` (citegeist layout) or
   * `actual_citations` (published layout, missing or null). They are scored as an empty list, as the
   * published code does, and the command warns and counts them.
   */
  missingFields: Record<string, string[]>;
  /** The sha256 of the file's bytes, hashed as they were read (a manifest need not read it again). */
  sha256: string;
}

/**
 * What a run file's name says before its rows are read: the model of rows that name none (the
 * published harness's `eval_<model>[_baseline].json`, else the file name without its extension,
 * unless `model` is given) and whether the citation contract applied (not for `_baseline`).
 */
export function runFileDefaults(path: string, model?: string): { fallbackModel: string; contract: boolean } {
  const name = basename(path);
  const published = /^eval_(.+?)(_baseline)?\.json$/i.exec(name);
  return {
    fallbackModel:
      model ?? (published ? `${published[1]}${published[2] ?? ''}` : name.replace(/\.(jsonl?|json)$/i, '')),
    contract: !published?.[2],
  };
}

/**
 * Reads a run: citegeist run JSONL (one RunRow per line), or the published ResearchQA results
 * layout: the harness's `eval_{model}[_baseline].json`, `{run_id, timestamp, llm_provider,
 * model_name, mode, summary, rows}` (khoj-ai/openpaper server/evals/run_benchmark.py, 0db211cc:
 * `load_results`, `main`), or a bare JSON list of its rows, `{row_id, actual_answer,
 * actual_citations: [{key, reference}], latency_seconds, error}`. The model is the `model` option,
 * else a row's `model`, else the file's `model_name`, else the file name (`eval_` and `.json`
 * removed); a baseline run (`mode: "baseline"` or a `_baseline` file) is read without the citation
 * contract and its model gets `_baseline`. Bad rows are returned as errors (file, line or index,
 * field). A run file that starts with a manifest holds one run: a row id repeated there is an
 * error (the first row is kept); in files from before manifests a repeated id replaces the earlier
 * row only when that one failed (a resumed run retried it), and a repeat of an answered row is an
 * error (the first is kept).
 */
export function readRun(path: string, options: { model?: string } = {}): RunReadResult {
  let { fallbackModel, contract } = runFileDefaults(path, options.model);
  const out: RunReadResult = {
    format: 'citegeist',
    rows: [],
    errors: [],
    models: [],
    manifest: null,
    missingFields: {},
    sha256: '',
  };
  const add = runRowAdder(out.rows, out);
  const json = publishedRows(path);
  if (json) {
    out.format = 'published';
    const { envelope, rows } = json;
    out.sha256 = json.sha256;
    if (envelope) {
      const { summary: _summary, ...info } = envelope;
      out.published = info;
      const baseline = envelope.mode === 'baseline' || !contract;
      const model = typeof envelope.model_name === 'string' ? envelope.model_name : null;
      if (!options.model && model) fallbackModel = `${model}${baseline ? '_baseline' : ''}`;
      contract = !baseline;
    }
    for (const [i, value] of rows.entries()) {
      const where = `${path} ${envelope ? 'rows' : ''}[${i}]`;
      const row = publishedRow(value, fallbackModel, contract);
      if (typeof row === 'string') out.errors.push({ where, message: row });
      else if (add(row, where)) noteMissingCitations(out, row, value, 'published');
    }
  } else {
    const file = readJsonlFile(path, 'run file');
    out.sha256 = file.sha256;
    const { manifest, rows } = takeManifest(file.lines, path, false);
    out.manifest = manifest;
    for (const entry of rows) {
      const where = location(path, entry.line);
      if (!entry.ok) {
        out.errors.push({ where, message: `not JSON (${entry.error})` });
        continue;
      }
      const row = citegeistRow(entry.value, fallbackModel);
      if (typeof row === 'string') out.errors.push({ where, message: row });
      else if (add(row, where)) noteMissingCitations(out, row, entry.value, 'citegeist');
    }
  }
  out.models = [...new Set(out.rows.map((r) => r.model))];
  return out;
}

/**
 * Adds rows to `rows` by row id, with the rule for a repeated id (see `readRun`): in a file with a
 * manifest it is an error; in files from before manifests it replaces the earlier row only when
 * that one failed, else it is an error. The adder returns false (the error recorded) when the row
 * was not added.
 */
export function runRowAdder<T extends { row_id: string; error: string | null }>(
  rows: T[],
  out: Pick<RunReadResult, 'errors' | 'manifest'>,
): (row: T, where: string) => boolean {
  const byId = new Map<string, number>();
  return (row, where) => {
    const at = byId.get(row.row_id);
    if (at === undefined) {
      byId.set(row.row_id, rows.length);
      rows.push(row);
      return true;
    }
    if (!out.manifest && rows[at]!.error !== null) {
      rows[at] = row; // a retry of a failed row (a resumed run from before manifests) replaces it
      return true;
    }
    out.errors.push({
      where,
      message: out.manifest
        ? `row id "${row.row_id}" again: a run holds each row once`
        : `duplicate row_id "${row.row_id}": an answered row is never replaced (the first one is kept)`,
    });
    return false;
  };
}

/**
 * Notes an answered row read without its citations field (`actual_citations` missing or null in
 * the published layout, `citations` absent in citegeist's): it is scored as an empty list.
 */
export function noteMissingCitations(
  out: Pick<RunReadResult, 'missingFields'>,
  row: { row_id: string; error: string | null },
  value: unknown,
  layout: 'published' | 'citegeist',
): void {
  if (row.error !== null || typeof value !== 'object' || value === null) return;
  const v = value as Record<string, unknown>;
  const field = layout === 'published' ? 'actual_citations' : 'citations';
  const absent = layout === 'published' ? v[field] === undefined || v[field] === null : !(field in v);
  if (!absent) return;
  const ids = out.missingFields[field] ?? [];
  ids.push(row.row_id);
  out.missingFields[field] = ids;
}

/**
 * The rows of a run in the published layout: a JSON list, or the results object `{…, rows: [...]}`
 * (its other fields as `envelope`); null when the file is neither (JSONL). Read row by row.
 */
function publishedRows(
  path: string,
): { envelope: Record<string, unknown> | null; rows: unknown[]; sha256: string } | null {
  const first = firstContentChar(path, 'run file');
  if (first !== '[' && first !== '{') return null;
  const rows: unknown[] = [];
  let file: JsonRowsFile;
  try {
    file = scanJsonRows(path, 'json', (text) => rows.push(JSON.parse(text)), 'run file');
  } catch (error) {
    // An object that is not one JSON value with a rows list is JSONL (a run's manifest line, say).
    if (first === '{') return null;
    throw runJsonError(path, error);
  }
  if (file.layout === 'list') return { envelope: null, rows, sha256: file.sha256 };
  return file.hasRows ? { envelope: file.fields, rows, sha256: file.sha256 } : null;
}

/** A run file that starts like a JSON list (or object) but does not parse. */
export function runJsonError(path: string, error: unknown): CitegeistError {
  return new CitegeistError(
    'INVALID_JSON',
    `The run file ${path} starts like a JSON list but does not parse (${(error as Error).message}).`,
    'Fix the JSON, or give citegeist run JSONL.',
  );
}

export function publishedRow(value: unknown, model: string, contract = true): RunRow | string {
  const v = (value ?? {}) as Record<string, unknown>;
  if (typeof v.row_id !== 'string' || v.row_id === '') return 'field "row_id": missing or not a string';
  if (v.actual_answer !== undefined && v.actual_answer !== null && typeof v.actual_answer !== 'string') {
    return 'field "actual_answer": not a string';
  }
  const cites = v.actual_citations ?? [];
  if (!Array.isArray(cites)) return 'field "actual_citations": not a list';
  const citations = [];
  for (const [i, c] of cites.entries()) {
    const rec = (c ?? {}) as Record<string, unknown>;
    const quote = rec.reference ?? rec.quote;
    if (typeof quote !== 'string') return `field "actual_citations.${i}.reference": not a string`;
    citations.push({ key: String(rec.key ?? i + 1), quote });
  }
  const latency = typeof v.latency_seconds === 'number' ? v.latency_seconds * 1000 : null;
  return RunRowSchema.parse({
    row_id: v.row_id,
    model: typeof v.model === 'string' ? v.model : model,
    answer: typeof v.actual_answer === 'string' ? v.actual_answer : '',
    citations,
    latency_ms: latency,
    contract,
    error: typeof v.error === 'string' && v.error !== '' ? v.error : null,
  });
}

/** A citegeist run JSONL line's value as a run row (its model defaulted), or why it is not one. */
export function citegeistRow(value: unknown, model: string): RunRow | string {
  const v = value as Record<string, unknown> | null;
  const parsed = RunRowSchema.safeParse(
    v && typeof v === 'object' && v.model === undefined ? { ...v, model } : v,
  );
  return parsed.success ? parsed.data : `not a run row: ${describeIssues(parsed.error)}`;
}

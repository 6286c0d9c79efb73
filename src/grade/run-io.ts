import { basename } from 'node:path';
import {
  CitegeistError,
  describeIssues,
  location,
  parseJsonl,
  type RunManifest,
  type RunRow,
  RunRowSchema,
  readTextFile,
  takeManifest,
} from '../core/index.js';

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
  const text = readTextFile(path, 'run file');
  const trimmed = text.trimStart();
  const name = basename(path);
  const published = /^eval_(.+?)(_baseline)?\.json$/i.exec(name);
  let fallbackModel =
    options.model ??
    (published ? `${published[1]}${published[2] ?? ''}` : name.replace(/\.(jsonl?|json)$/i, ''));
  let contract = !published?.[2];
  const out: RunReadResult = {
    format: 'citegeist',
    rows: [],
    errors: [],
    models: [],
    manifest: null,
    missingFields: {},
  };
  const missing = (field: string, rowId: string) => {
    const ids = out.missingFields[field] ?? [];
    ids.push(rowId);
    out.missingFields[field] = ids;
  };
  const byId = new Map<string, number>();
  /** Adds a row; false (with an error recorded) when it repeats a row that stays. */
  const add = (row: RunRow, where: string): boolean => {
    const at = byId.get(row.row_id);
    if (at === undefined) {
      byId.set(row.row_id, out.rows.length);
      out.rows.push(row);
      return true;
    }
    if (!out.manifest && out.rows[at]!.error !== null) {
      out.rows[at] = row; // a retry of a failed row (a resumed run from before manifests) replaces it
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
  const envelope = trimmed.startsWith('{') ? resultsEnvelope(text) : null;
  if (trimmed.startsWith('[') || envelope) {
    out.format = 'published';
    let data: unknown = envelope;
    if (!envelope) {
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw new CitegeistError(
          'INVALID_JSON',
          `The run file ${path} starts like a JSON list but does not parse (${(error as Error).message}).`,
          'Fix the JSON, or give citegeist run JSONL.',
        );
      }
    }
    let rows = data as unknown[];
    if (envelope) {
      const { rows: list, summary: _summary, ...info } = envelope;
      rows = list as unknown[];
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
      else if (add(row, where) && row.error === null) {
        const cites = (value as Record<string, unknown>).actual_citations;
        if (cites === undefined || cites === null) missing('actual_citations', row.row_id);
      }
    }
  } else {
    const { manifest, rows } = takeManifest(parseJsonl(text), path, false);
    out.manifest = manifest;
    for (const entry of rows) {
      const where = location(path, entry.line);
      if (!entry.ok) {
        out.errors.push({ where, message: `not JSON (${entry.error})` });
        continue;
      }
      const value = entry.value as Record<string, unknown> | null;
      const parsed = RunRowSchema.safeParse(
        value && typeof value === 'object' && value.model === undefined
          ? { ...value, model: fallbackModel }
          : value,
      );
      if (parsed.success) {
        if (add(parsed.data, where) && value && !('citations' in value) && parsed.data.error === null)
          missing('citations', parsed.data.row_id);
      } else out.errors.push({ where, message: `not a run row: ${describeIssues(parsed.error)}` });
    }
  }
  out.models = [...new Set(out.rows.map((r) => r.model))];
  return out;
}

/** The published results file `{run_id, …, rows: [...]}`, or null when the text is not one. */
function resultsEnvelope(text: string): Record<string, unknown> | null {
  try {
    const data = JSON.parse(text) as unknown;
    if (typeof data === 'object' && data !== null && Array.isArray((data as { rows?: unknown }).rows)) {
      return data as Record<string, unknown>;
    }
  } catch {
    // Not one JSON object: JSONL.
  }
  return null;
}

function publishedRow(value: unknown, model: string, contract = true): RunRow | string {
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

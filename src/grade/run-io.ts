import { basename } from 'node:path';
import {
  CitegeistError,
  describeIssues,
  location,
  parseJsonl,
  type RunRow,
  RunRowSchema,
  readTextFile,
} from '../core/index.js';

export interface RunReadResult {
  format: 'citegeist' | 'published';
  rows: RunRow[];
  errors: { where: string; message: string }[];
  /** The model(s) found in the rows. */
  models: string[];
  /**
   * Rows read without a field that changes their scores, by field: `citations` (citegeist layout) or
   * `actual_citations` (published layout, missing or null). They are scored as an empty list, as the
   * published code does, and the command warns and counts them.
   */
  missingFields: Record<string, string[]>;
}

/**
 * Reads a run: citegeist run JSONL (one RunRow per line), or the published ResearchQA results
 * layout — a JSON list of `{row_id, actual_answer, actual_citations: [{key, reference}],
 * latency_seconds}` (an optional `model` field is kept; otherwise the model is `model` option or
 * the file name without extension). Bad rows are returned as errors (file, line or index, field);
 * a row id repeated later replaces the earlier one only when that one failed (a resumed run retried
 * it); a repeat of an answered row is an error (the first is kept).
 */
export function readRun(path: string, options: { model?: string } = {}): RunReadResult {
  const text = readTextFile(path, 'run file');
  const trimmed = text.trimStart();
  const fallbackModel = options.model ?? basename(path).replace(/\.(jsonl?|json)$/i, '');
  const out: RunReadResult = { format: 'citegeist', rows: [], errors: [], models: [], missingFields: {} };
  const missing = (field: string, rowId: string) => {
    const ids = out.missingFields[field] ?? [];
    ids.push(rowId);
    out.missingFields[field] = ids;
  };
  const byId = new Map<string, number>();
  const add = (row: RunRow) => {
    const at = byId.get(row.row_id);
    if (at === undefined) {
      byId.set(row.row_id, out.rows.length);
      out.rows.push(row);
    } else if (out.rows[at]!.error !== null) {
      out.rows[at] = row; // a retry of a failed row (a resumed run) replaces it
    } else {
      return `duplicate row_id "${row.row_id}": an answered row is never replaced (the first one is kept)`;
    }
    return undefined;
  };
  if (trimmed.startsWith('[')) {
    out.format = 'published';
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new CitegeistError(
        'INVALID_JSON',
        `The run file ${path} starts like a JSON list but does not parse (${(error as Error).message}).`,
        'Fix the JSON, or give citegeist run JSONL.',
      );
    }
    for (const [i, value] of (data as unknown[]).entries()) {
      const row = publishedRow(value, fallbackModel);
      if (typeof row === 'string') out.errors.push({ where: `${path} [${i}]`, message: row });
      else {
        const duplicate = add(row);
        const cites = (value as Record<string, unknown>).actual_citations;
        if (duplicate) out.errors.push({ where: `${path} [${i}]`, message: duplicate });
        else if (cites === undefined || cites === null) missing('actual_citations', row.row_id);
      }
    }
  } else {
    for (const entry of parseJsonl(text)) {
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
        const duplicate = add(parsed.data);
        if (duplicate) out.errors.push({ where, message: duplicate });
        else if (value && !('citations' in value) && parsed.data.error === null)
          missing('citations', parsed.data.row_id);
      } else out.errors.push({ where, message: `not a run row: ${describeIssues(parsed.error)}` });
    }
  }
  out.models = [...new Set(out.rows.map((r) => r.model))];
  return out;
}

function publishedRow(value: unknown, model: string): RunRow | string {
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
    error: typeof v.error === 'string' && v.error !== '' ? v.error : null,
  });
}

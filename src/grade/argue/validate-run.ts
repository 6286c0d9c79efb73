/**
 * `reports validate`: checks a run as rag-run-validator does (hltcoe/rag-run-validator
 * `rag_run_validator/__init__.py` @ 09b8190b), with its messages and line numbers: the default
 * JSON schema per line (`[Error:<line>] Format -- …`), the length limit of each topic's request
 * (`[Warning:<line>] Response in topic … is too long (characters) -- n > limit`, an error with
 * `strictOnLength`), and the topic set (`[Error] Missing topics: {…}`). citegeist adds checks
 * rag-run-validator leaves to the track guidelines: duplicate topics, cited ids absent from
 * `references` or from the collection, and with `ragtime` the RAGTIME report rules (citations as
 * `{doc_id: confidence}` with confidences in 0–100, `references` equal to the cited set).
 */
import { CitegeistError } from '../../core/index.js';
import {
  detectReportFormat,
  type LengthMode,
  parseReport,
  type Report,
  type ReportRequest,
  reportLength,
} from '../../formats/index.js';
import { parsePythonJson } from '../../python-compat/index.js';
import type { CitedDocumentSource } from './documents.js';

export interface ValidationMessage {
  level: 'error' | 'warning';
  /** 1-based line of the run file, or null for run-level messages. */
  line: number | null;
  text: string;
}

export interface ValidateOptions {
  requests?: ReadonlyMap<string, ReportRequest> | null;
  /** Used for topics whose request sets no limit (rag-run-validator's `--limit`). */
  limit?: number | null;
  lengthMode?: LengthMode;
  strictOnLength?: boolean;
  docs?: CitedDocumentSource | null;
  ragtime?: boolean;
}

const type = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
const py = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

/** The first violation of rag-run-validator's default schema, worded as jsonschema words it. */
export function schemaError(value: unknown): string | null {
  if (type(value) !== 'object') return `${py(value)} is not of type 'object'`;
  const v = value as Record<string, unknown>;
  for (const k of ['metadata', 'responses', 'references'])
    if (!(k in v)) return `'${k}' is a required property`;
  const meta = v.metadata as Record<string, unknown>;
  if (type(meta) !== 'object') return `${py(meta)} is not of type 'object'`;
  for (const k of ['team_id', 'run_id', 'topic_id']) if (!(k in meta)) return `'${k}' is a required property`;
  for (const k of ['team_id', 'run_id', 'topic_id'])
    if (typeof meta[k] !== 'string') return `${py(meta[k])} is not of type 'string'`;
  if (!Array.isArray(v.responses)) return `${py(v.responses)} is not of type 'array'`;
  for (const r of v.responses as Record<string, unknown>[]) {
    if (type(r) !== 'object') return `${py(r)} is not of type 'object'`;
    for (const k of ['text', 'citations']) if (!(k in r)) return `'${k}' is a required property`;
    if (typeof r.text !== 'string') return `${py(r.text)} is not of type 'string'`;
    const c = r.citations;
    const okDict = type(c) === 'object' && Object.values(c as object).every((x) => typeof x === 'number');
    const okList = Array.isArray(c) && c.every((x) => typeof x === 'string');
    if (!okDict && !okList) return `${JSON.stringify(c)} is not valid under any of the given schemas`;
  }
  if (!Array.isArray(v.references)) return `${py(v.references)} is not of type 'array'`;
  for (const ref of v.references) if (typeof ref !== 'string') return `${py(ref)} is not of type 'string'`;
  return null;
}

function checkReport(r: Report, line: number, o: ValidateOptions, out: ValidationMessage[]): void {
  const push = (level: ValidationMessage['level'], text: string) => out.push({ level, line, text });
  const mode = o.lengthMode ?? 'characters';
  const limit = o.requests?.get(r.topicId)?.limit ?? o.limit ?? null;
  if (limit !== null) {
    const length = reportLength(
      r.sentences.map((s) => s.text),
      mode,
    );
    if (length > limit) {
      push(
        o.strictOnLength ? 'error' : 'warning',
        `Response in topic ${r.topicId} is too long (${mode}) -- ${length} > ${limit}`,
      );
    }
  }
  if (o.requests && !o.requests.has(r.topicId)) push('warning', `Topic ${r.topicId} is not in the requests`);
  const cited = new Set(r.sentences.flatMap((s) => s.citations));
  const refs = new Set(r.references);
  const notInRefs = [...cited].filter((d) => !refs.has(d));
  if (notInRefs.length > 0 && r.format !== 'neuclir-2024') {
    push(
      o.ragtime ? 'error' : 'warning',
      `Topic ${r.topicId} cites ids missing from "references": ${notInRefs.slice(0, 5).join(', ')}${notInRefs.length > 5 ? ` (+${notInRefs.length - 5})` : ''}`,
    );
  }
  if (o.docs) {
    const unknown = [...new Set([...cited, ...refs])].filter((d) => !o.docs?.get(d));
    if (unknown.length > 0)
      push(
        'error',
        `Topic ${r.topicId} cites ${unknown.length} id(s) not in the collection: ${unknown.slice(0, 5).join(', ')}`,
      );
  }
  if (!o.ragtime) return;
  if (r.format !== 'ragtime' || r.sentences.some((s) => s.scores === null && s.citations.length > 0)) {
    push('error', `Topic ${r.topicId}: RAGTIME citations are {doc_id: confidence} dictionaries`);
  }
  const bad = r.sentences.flatMap((s) => s.scores ?? []).filter((x) => !(x >= 0 && x <= 100));
  if (bad.length > 0)
    push('error', `Topic ${r.topicId}: citation confidences must be in 0-100 (found ${bad[0]})`);
  const extra = [...refs].filter((d) => !cited.has(d));
  if (extra.length > 0)
    push(
      'error',
      `Topic ${r.topicId}: "references" must equal the cited documents (${extra.length} listed but never cited)`,
    );
}

function formatError(line: number, error: unknown): ValidationMessage {
  return {
    level: 'error',
    line,
    text: `Format -- ${error instanceof CitegeistError ? error.problem : String(error)}`,
  };
}

/** Validates a run file's text; never throws on a bad line (each becomes a message). */
export function validateRun(
  text: string,
  file: string,
  o: ValidateOptions = {},
): { messages: ValidationMessage[]; reports: number } {
  const out: ValidationMessage[] = [];
  const seen = new Map<string, number>();
  let reports = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = parsePythonJson(raw, `${file} line ${line}`);
    } catch (error) {
      out.push(formatError(line, error));
      continue;
    }
    const format = detectReportFormat(value) ?? 'ragtime';
    if (format === 'ragtime') {
      const problem = schemaError(value);
      if (problem) {
        out.push({ level: 'error', line, text: `Format -- ${problem}` });
        continue;
      }
    }
    let report: Report;
    try {
      report = parseReport(value, `${file} line ${line}`, file);
    } catch (error) {
      out.push(formatError(line, error));
      continue;
    }
    reports++;
    const key = `${report.runId}\u0000${report.topicId}`;
    const before = seen.get(key);
    if (before !== undefined)
      out.push({
        level: 'error',
        line,
        text: `Topic ${report.topicId} of run ${report.runId} already appeared on line ${before}`,
      });
    else seen.set(key, line);
    checkReport(report, line, o, out);
  }
  if (o.requests && o.requests.size > 0) {
    const present = new Set([...seen.keys()].map((k) => k.split('\u0000')[1]));
    const missing = [...o.requests.keys()].filter((t) => !present.has(t)).sort();
    if (missing.length > 0)
      out.push({
        level: 'error',
        line: null,
        text: `Missing topics: {${missing.map((t) => `'${t}'`).join(', ')}}`,
      });
  }
  return { messages: out, reports };
}

/** A message as rag-run-validator prints it: `[Error:3] …`, `[Warning:5] …`, `[Error] …`. */
export function formatValidationMessage(m: ValidationMessage): string {
  const level = m.level === 'error' ? 'Error' : 'Warning';
  return `[${level}${m.line === null ? '' : `:${m.line}`}] ${m.text}`;
}

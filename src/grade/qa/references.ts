import { location, quoteValue } from '../../core/index.js';
import type { QasperAnnotation } from '../../generate/index.js';
import { parseJsonl } from '../../io/index.js';

/** Reference answers per row id, read from one of the layouts `parseReferences` accepts. */
export interface ReferenceSet {
  format: 'qasper' | 'dataset' | 'references';
  /** Row id → its reference answers (possibly empty: the row has none, its scores are not applicable). */
  references: Map<string, string[]>;
  /** Rows that could not be read (file, line or index, and why); the others are kept. */
  errors: { where: string; message: string }[];
}

/**
 * A QASPER question's references: per annotation, its free-form answer and its extractive spans
 * joined with ", " (as QASPER's evaluator joins them), each when present; distinct strings in
 * annotation order. Yes/no and unanswerable annotations give none.
 */
export function qasperReferenceTexts(answers: readonly QasperAnnotation[]): string[] {
  const out = new Set<string>();
  for (const a of answers) {
    if (a.unanswerable) continue;
    if (a.free_form_answer.trim() !== '') out.add(a.free_form_answer);
    const spans = a.extractive_spans.filter((s) => s.trim() !== '');
    if (spans.length > 0) out.add(spans.join(', '));
  }
  return [...out];
}

/**
 * Reads reference answers from
 * - QASPER's flat question list (`questions_validation.json`): row id `<paper_id>_<question_id>`
 *   (as `citegeist dataset import-qasper` names rows), references per `qasperReferenceTexts`;
 * - a citegeist dataset (eval_dataset.json envelope, a JSON list of rows, or JSONL): rows imported
 *   from QASPER use all their annotations (`metadata.qasper_answers`), other rows their
 *   `expected_answer` (none for rows that expect a refusal);
 * - JSONL or a JSON list of `{row_id, references: [..]}` or `{row_id, reference: ".."}`.
 * A bad row is reported in `errors` and skipped; a row id given twice keeps the last.
 */
export function parseReferences(text: string, file: string): ReferenceSet {
  const set: ReferenceSet = { format: 'references', references: new Map(), errors: [] };
  const trimmed = text.trimStart();
  let entries: { where: string; value: unknown }[];
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined; // JSONL whose first line is an object: read line by line below
    }
    const list = Array.isArray(data) ? data : (data as { rows?: unknown } | undefined)?.rows;
    // A JSON list, or an eval_dataset.json envelope; anything else (e.g. one-line JSONL) line by line.
    entries = Array.isArray(list)
      ? list.map((value, i) => ({ where: `${file} [${i}]`, value }))
      : jsonlEntries(text, file, set);
  } else {
    entries = jsonlEntries(text, file, set);
  }
  const first = entries.find((e) => typeof e.value === 'object' && e.value !== null)?.value as
    | Record<string, unknown>
    | undefined;
  if (first && typeof first.question_id === 'string' && Array.isArray(first.answers)) set.format = 'qasper';
  else if (first && typeof first.question === 'string') set.format = 'dataset';
  for (const { where, value } of entries) {
    const row = readEntry(value, set.format);
    if (typeof row === 'string') set.errors.push({ where, message: row });
    else set.references.set(row.id, row.references);
  }
  return set;
}

function jsonlEntries(text: string, file: string, set: ReferenceSet): { where: string; value: unknown }[] {
  const out: { where: string; value: unknown }[] = [];
  for (const entry of parseJsonl(text)) {
    const where = location(file, entry.line);
    if (entry.ok) out.push({ where, value: entry.value });
    else set.errors.push({ where, message: `not JSON (${entry.error})` });
  }
  return out;
}

function readEntry(
  value: unknown,
  format: ReferenceSet['format'],
): { id: string; references: string[] } | string {
  const v = (value ?? {}) as Record<string, unknown>;
  if (format === 'qasper') {
    if (typeof v.paper_id !== 'string' || typeof v.question_id !== 'string' || !Array.isArray(v.answers)) {
      return `not a QASPER question (needs paper_id, question_id, answers): ${quoteValue(value)}`;
    }
    return { id: `${v.paper_id}_${v.question_id}`, references: qasperTexts(v.answers) };
  }
  if (typeof v.row_id !== 'string' || v.row_id === '') return 'field "row_id": missing or not a string';
  if (format === 'dataset') {
    const meta = (v.metadata ?? {}) as Record<string, unknown>;
    if (Array.isArray(meta.qasper_answers))
      return { id: v.row_id, references: qasperTexts(meta.qasper_answers) };
    const expected = typeof v.expected_answer === 'string' ? v.expected_answer : '';
    const refs = v.expected_refusal === true || expected.trim() === '' ? [] : [expected];
    return { id: v.row_id, references: refs };
  }
  const refs = v.references ?? (v.reference === undefined ? undefined : [v.reference]);
  if (!Array.isArray(refs) || !refs.every((r) => typeof r === 'string')) {
    return 'field "references": not a list of strings (or "reference": not a string)';
  }
  return { id: v.row_id, references: refs.filter((r) => r.trim() !== '') };
}

function qasperTexts(answers: unknown[]): string[] {
  const annotations = answers.map((a) => {
    const x = (a ?? {}) as Record<string, unknown>;
    // The native layout nests each annotation under "answer".
    return (typeof x.answer === 'object' && x.answer !== null ? x.answer : x) as Partial<QasperAnnotation>;
  });
  return qasperReferenceTexts(
    annotations.map((a) => ({
      unanswerable: a.unanswerable === true,
      yes_no: a.yes_no ?? null,
      free_form_answer: typeof a.free_form_answer === 'string' ? a.free_form_answer : '',
      extractive_spans: Array.isArray(a.extractive_spans)
        ? a.extractive_spans.filter((s) => typeof s === 'string')
        : [],
      evidence: [],
    })),
  );
}

/**
 * The layouts of the published ResearchQA dataset, mapped onto citegeist's row (and back):
 *
 * - `eval_dataset.json` as khoj-ai/openpaper's generator writes it (server/evals/generate_dataset.py,
 *   0db211cc: `load_dataset`, `save_dataset`, `process_paper`): `{version, created_at,
 *   source_manifest, total_rows, total_papers_processed, rows, errors}`, rows with `paper_doi`,
 *   `paper_s3_url`, a nested `metadata` and `judge_rubric` a string (null for lookup rows);
 * - its hub export (server/evals/upload_evals_dataset.sh): one row per line with `metadata`
 *   flattened into `metadata_*` columns, the top-level copies of `required_sections`,
 *   `reasoning_chain` and `false_premise` dropped, and a null `judge_rubric` written as "". The
 *   hub serves the same table as Parquet, where every row has every column (null when absent);
 * - the earlier generator's rows, where `expected_references` was a flat list of quotes (before
 *   `SectionEvidence` groups): read as one single-quote group per quote, marked
 *   `evidence_layout: 'flat'` (graded as that version's grader did) and written back flat.
 */
import type { DatasetRow } from '../core/index.js';

export type DatasetLayout =
  | 'eval_dataset.json'
  | 'JSON list'
  | 'JSONL'
  | 'hub export (JSON)'
  | 'hub export (JSONL)'
  | 'hub export (Parquet)';

/** Fields the hub export keeps only as `metadata_*` (upload_evals_dataset.sh DUPLICATED_IN_METADATA). */
const DUPLICATED_IN_METADATA = ['required_sections', 'reasoning_chain', 'false_premise'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A row of the hub export: `metadata_*` columns and no nested `metadata` object. */
export function isHubRow(value: unknown): boolean {
  return (
    isObject(value) && !isObject(value.metadata) && Object.keys(value).some((k) => k.startsWith('metadata_'))
  );
}

/**
 * A hub row back in the published row layout: `metadata_*` columns into `metadata`, the fields
 * the export moved there copied back to the top level, and an empty rubric back to null. `dropNulls` (Parquet, where an
 * absent column reads as null) leaves null `metadata_*` values out.
 */
export function fromHubRow(value: Record<string, unknown>, dropNulls: boolean): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!key.startsWith('metadata_')) row[key] = v;
    else if (!(dropNulls && (v === null || v === undefined))) metadata[key.slice('metadata_'.length)] = v;
  }
  for (const key of DUPLICATED_IN_METADATA) {
    if (
      (row[key] === undefined || row[key] === null) &&
      metadata[key] !== undefined &&
      metadata[key] !== null
    ) {
      row[key] = metadata[key];
    }
  }
  // The export writes a null rubric (lookup rows) as "": back to the generator's null.
  if (row.judge_rubric === '') row.judge_rubric = null;
  row.metadata = metadata;
  return row;
}

/** What a row's `expected_references` holds: quotes (flat), groups, nothing, or both (an error). */
export function evidenceKind(value: unknown): 'flat' | 'groups' | 'none' | 'mixed' {
  const refs = isObject(value) ? value.expected_references : undefined;
  if (!Array.isArray(refs) || refs.length === 0) return 'none';
  const strings = refs.filter((r) => typeof r === 'string').length;
  if (strings === refs.length) return 'flat';
  return strings === 0 ? 'groups' : 'mixed';
}

/**
 * A flat-layout row as groups: each quote its own group (labelled by the row's
 * `required_sections`, which that generator aligned 1:1 with the quotes for multi-hop rows).
 */
export function fromFlatRow(value: Record<string, unknown>): Record<string, unknown> {
  const refs = Array.isArray(value.expected_references) ? (value.expected_references as unknown[]) : [];
  const labels = Array.isArray(value.required_sections) ? (value.required_sections as unknown[]) : [];
  return {
    ...value,
    expected_references: refs.map((quote, i) => ({
      section_label: typeof labels[i] === 'string' ? labels[i] : '',
      alternatives: [quote],
    })),
    evidence_layout: 'flat',
  };
}

/** The row as the published layout writes it (flat rows flat again; citegeist's marker dropped). */
export function toPublishedRow(row: DatasetRow): Record<string, unknown> {
  const { evidence_layout: layout, ...rest } = row;
  if (layout !== 'flat') return rest;
  return { ...rest, expected_references: row.expected_references.map((g) => g.alternatives[0] ?? '') };
}

/** Values read from Parquet as JSON values: INT64 (BigInt) as numbers, recursively. */
export function plainJson(value: unknown): unknown {
  if (typeof value === 'bigint') {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  if (Array.isArray(value)) return value.map(plainJson);
  if (value instanceof Date) return value.toISOString();
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  return value;
}

export const FLAT_LAYOUT_WARNING =
  'expected_references is a flat list of quotes (the earlier ResearchQA generator layout, before evidence groups): ' +
  'each quote is read as its own evidence group and the rows are graded as that version of the grader did ' +
  '(section_coverage = its citation_recall; adversarial rows also get precision, coverage and accuracy, and ' +
  'refusal_correctness by fuzzy match against the expected quotes); citation accuracy uses the current quote matcher.';

import type { DatasetRow, DatasetRowRef } from '../core/index.js';
import type { DatasetReadResult } from '../formats/index.js';
import { type MatchForms, matchAnyQuote, type PreparedPaper, preparePaper } from '../text/index.js';

/**
 * What `citegeist dataset check` looks for before any money is spent. Errors make a dataset unfit
 * to answer or grade (the row could only fail or be counted wrongly); warnings are worth reading
 * but leave the row usable.
 */
export type DatasetProblemKind =
  | 'no_rows'
  | 'invalid_row'
  | 'duplicate_row_id'
  | 'empty_question'
  | 'unknown_paper'
  | 'unlocated_evidence'
  | 'missing_field';

export interface DatasetProblem {
  kind: DatasetProblemKind;
  severity: 'error' | 'warning';
  /** File and line (or index) for read problems; the row id otherwise. */
  where: string;
  message: string;
  row_id?: string;
  paper_id?: string;
  /** unlocated_evidence: the evidence text (first alternative of the group). */
  evidence?: string;
  /** unlocated_evidence: the paper passage nearest to it and how close (sequence ratio). */
  nearest?: { text: string; similarity: number };
}

export interface DatasetCheck {
  rows: number;
  papers: number;
  evidence: { groups: number; located: number };
  errors: DatasetProblem[];
  warnings: DatasetProblem[];
}

export interface CheckOptions {
  /**
   * Loads a paper by id (a `Document`, or a paper's text with the quote matcher's stored forms of
   * it); null when the source has none. Without it paper ids and evidence are not checked.
   */
  loadPaper?: (id: string) => Promise<{ text: string; forms?: MatchForms | null } | null>;
  /**
   * Look for the gold evidence in the papers (default true). false checks paper ids only: the
   * evidence part, which only ever warns, costs about as much as grading the rows.
   */
  evidence?: boolean;
}

const NEAREST_CHARS = 240;

/**
 * The version of what `checkDataset` reports for a given dataset and papers: bump it when a change
 * to the check (or to the strict matcher it uses) would report other problems, so that results
 * kept by callers (the workspace's check cache) are not reused.
 */
export const DATASET_CHECK_VERSION = 1;

/** What the check reads of a dataset: its rows (in memory, or references read again one by one). */
export type CheckedDataset = Pick<DatasetReadResult, 'errors' | 'missingFields'> & {
  rows: readonly (DatasetRow | DatasetRowRef)[];
};

/**
 * Checks a dataset as read by `readDataset` (or indexed by `indexDataset`): rows that did not
 * parse, duplicate row ids, empty questions, a file that yielded no rows; with a paper source also
 * paper ids the source does not hold and gold evidence that the strict quote matcher cannot find in
 * its paper (listed with the nearest passage, so a typo or an extraction difference is visible at
 * once). Rows are checked paper by paper, each paper prepared once and released after its rows
 * (a dataset over hundreds of papers holds one at a time); problems are listed in row order.
 */
export async function checkDataset(read: CheckedDataset, options: CheckOptions = {}): Promise<DatasetCheck> {
  const problems: DatasetProblem[] = read.errors.map((e) => ({
    kind: e.duplicate ? 'duplicate_row_id' : 'invalid_row',
    severity: 'error',
    where: e.where,
    message: e.message,
  }));
  if (read.rows.length === 0) {
    problems.unshift({
      kind: 'no_rows',
      severity: 'error',
      where: 'dataset',
      message: `no usable rows${read.errors.length > 0 ? ` (${read.errors.length} line(s) could not be read)` : ''}`,
    });
  }
  for (const [field, ids] of Object.entries(read.missingFields)) {
    for (const id of ids) {
      problems.push({
        kind: 'missing_field',
        severity: 'warning',
        where: `row ${id}`,
        row_id: id,
        message: `has no "${field}" field: it is scored as an empty list (write [] to say so)`,
      });
    }
  }
  // Per row (by position): its empty-question problem, and its paper and evidence problems.
  const questions: DatasetProblem[][] = [];
  const papersOf: DatasetProblem[][] = [];
  const evidence = { groups: 0, located: 0 };
  const byPaper = new Map<string, number[]>();
  for (const [i, row] of read.rows.entries()) {
    const at = byPaper.get(row.paper_id);
    if (at) at.push(i);
    else byPaper.set(row.paper_id, [i]);
  }
  for (const [paperId, indices] of byPaper) {
    const loaded = options.loadPaper ? await options.loadPaper(paperId) : undefined;
    const withEvidence = loaded && options.evidence !== false;
    const paper = withEvidence ? preparePaper(loaded.text, { forms: loaded.forms ?? null }) : null;
    for (const i of indices) {
      const ref = read.rows[i]!;
      // A row reference knows whether its question is blank: it is read again only for its evidence.
      const row = isRef(ref) && withEvidence ? ref.load() : ref;
      const found: DatasetProblem[] = [];
      if (isRef(row) ? row.blankQuestion : row.question.trim() === '') {
        questions[i] = [
          rowProblem(row, 'empty_question', 'error', 'the question is empty (only white space)'),
        ];
      }
      if (loaded === undefined) continue;
      if (loaded === null) {
        found.push(
          rowProblem(row, 'unknown_paper', 'error', `paper "${row.paper_id}" is not in the paper source`),
        );
      } else if (paper && !isRef(row)) checkEvidence(row, paper, evidence, found);
      papersOf[i] = found;
    }
  }
  for (const list of [questions, papersOf]) for (const found of list) if (found) problems.push(...found);
  return {
    rows: read.rows.length,
    papers: byPaper.size,
    evidence,
    errors: problems.filter((p) => p.severity === 'error'),
    warnings: problems.filter((p) => p.severity === 'warning'),
  };
}

function isRef(row: DatasetRow | DatasetRowRef): row is DatasetRowRef {
  return typeof (row as Partial<DatasetRowRef>).load === 'function';
}

function checkEvidence(
  row: DatasetRow,
  paper: PreparedPaper,
  tally: { groups: number; located: number },
  problems: DatasetProblem[],
): void {
  for (const [g, group] of row.expected_references.entries()) {
    const alternatives = group.alternatives.filter((a) => a.trim() !== '');
    if (alternatives.length === 0) continue;
    tally.groups++;
    const match = matchAnyQuote(paper, alternatives, { mode: 'strict' });
    if (match.matched) {
      tally.located++;
      continue;
    }
    const problem = rowProblem(
      row,
      'unlocated_evidence',
      'warning',
      `evidence group ${g + 1} is not found in paper "${row.paper_id}" by the strict matcher`,
    );
    problem.evidence = clip(alternatives[0] ?? '');
    if (match.nearest)
      problem.nearest = { text: clip(match.nearest.text), similarity: match.similarity ?? 0 };
    problems.push(problem);
  }
}

function rowProblem(
  row: Pick<DatasetRow, 'row_id' | 'paper_id'>,
  kind: DatasetProblemKind,
  severity: DatasetProblem['severity'],
  message: string,
): DatasetProblem {
  return { kind, severity, where: `row ${row.row_id}`, message, row_id: row.row_id, paper_id: row.paper_id };
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > NEAREST_CHARS ? `${flat.slice(0, NEAREST_CHARS - 1)}…` : flat;
}

/** One line per problem, for terminals: `error  row X: message` (+ evidence and nearest passage). */
export function formatDatasetProblems(problems: readonly DatasetProblem[], max = 20): string {
  let text = '';
  for (const p of problems.slice(0, max)) {
    text += `${p.severity.padEnd(7)} ${p.where}: ${p.message}\n`;
    if (p.evidence !== undefined) text += `          evidence: "${p.evidence}"\n`;
    if (p.nearest) text += `          nearest (${p.nearest.similarity.toFixed(2)}): "${p.nearest.text}"\n`;
  }
  if (problems.length > max) text += `… and ${problems.length - max} more (see --json)\n`;
  return text;
}

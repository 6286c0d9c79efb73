import type { RunRow } from '../core/index.js';
import type { LooseGrade } from './loose-grade-row.js';
import type { ManifestInfo } from './loose-records.js';

/** A grades file as read: its manifest (if any) and its rows. */
export interface GradesSource {
  name: string;
  manifest: ManifestInfo | null;
  rows: LooseGrade[];
}

/** A run file as read: its manifest (if any) and its rows (`cached` kept when present). */
export interface RunSource {
  name: string;
  manifest: ManifestInfo | null;
  rows: (RunRow & { cached?: boolean })[];
}

/** One answer to show: a run's grades row and/or run row for one question. */
export interface JoinedAnswer {
  label: string;
  rowId: string;
  grade: LooseGrade | null;
  run: (RunRow & { cached?: boolean }) | null;
  gradesFile: GradesSource | null;
}

const key = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * Joins grades rows to run rows. A grades row belongs to the run named by its `label`, else its
 * file's manifest label, else its model (files from before labels); a run row to its file's
 * manifest label, else its model. A grades row finds its answer under its label, else under its
 * model. Run rows that no grades row claims are shown too (answered, not graded). A row id seen
 * twice in one run keeps the later row (a resumed file retried it), and is counted in `repeated`.
 */
export function joinAnswers(grades: readonly GradesSource[], runs: readonly RunSource[]) {
  const byLabel = new Map<string, JoinedAnswer['run']>();
  const byModel = new Map<string, JoinedAnswer['run']>();
  const runLabel = new Map<JoinedAnswer['run'], string>();
  for (const file of runs) {
    for (const row of file.rows) {
      const label = file.manifest?.label ?? row.model;
      byLabel.set(key(label, row.row_id), row);
      byModel.set(key(row.model, row.row_id), row);
      runLabel.set(row, label);
    }
  }
  const answers = new Map<string, JoinedAnswer>();
  const claimed = new Set<JoinedAnswer['run']>();
  let repeated = 0;
  for (const file of grades) {
    for (const grade of file.rows) {
      const label = grade.label ?? file.manifest?.label ?? grade.row.model;
      const k = key(label, grade.row.row_id);
      const run =
        byLabel.get(k) ??
        (grade.label === null && !file.manifest?.label
          ? byModel.get(key(grade.row.model, grade.row.row_id))
          : null) ??
        null;
      if (answers.has(k)) repeated++;
      if (run) claimed.add(run);
      answers.set(k, { label, rowId: grade.row.row_id, grade, run, gradesFile: file });
    }
  }
  for (const [run, label] of runLabel) {
    if (!run || claimed.has(run)) continue;
    const k = key(label, run.row_id);
    if (!answers.has(k)) answers.set(k, { label, rowId: run.row_id, grade: null, run, gradesFile: null });
  }
  return { answers: [...answers.values()], repeated };
}

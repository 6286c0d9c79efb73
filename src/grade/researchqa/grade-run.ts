import pLimit from 'p-limit';
import type { DatasetRow, DatasetRowRef, RunRow, RunRowRef } from '../../core/index.js';
import { failed, notApplicable } from '../../core/index.js';
import { setMetric } from './deterministic-grader.js';
import type { GradeRow } from './grade-row.js';
import {
  type DeterministicGradingOptions,
  gradeDeterministic,
  wholeRow,
  wholeRun,
} from './parallel-grading.js';
import type { Judge, RubricInput, RubricScores } from './rubric-judge.js';
import type { RubricGrounding } from './rubric-judge-grounding.js';

/** A rubric judge; one that grounds its evidence (`AnchoredRubricJudge`) adds `grounding`. */
type RubricJudge = Judge<RubricInput, RubricScores & { grounding?: RubricGrounding }>;

export interface GradeRunOptions extends Omit<DeterministicGradingOptions, 'onRow'> {
  judge?: RubricJudge;
  /** Judge calls in flight at once (default 4). */
  concurrency?: number;
  /**
   * Called after each fully graded row (in completion order), with the row's position among the
   * graded rows (the order of `grades`).
   */
  onRow?: (row: GradeRow, done: number, total: number, index: number, answer: RunRow) => void;
  signal?: AbortSignal;
}

export interface GradeRunResult {
  grades: GradeRow[];
  /** Run rows whose row_id is not in the dataset (not graded). */
  unknownRows: string[];
  /** Dataset rows the run has no answer for. */
  missingRows: string[];
  judgeFailures: number;
  /** Rows sent to the judge (failed answers are not): with `judgeFailures`, "every call failed". */
  judgeCalls: number;
}

/**
 * Grades every run row that belongs to the dataset: deterministic metrics always (on several
 * threads for large runs, see `gradeDeterministic`), then the rubric judge when one is given (its
 * failures are `failed`, never 0; failed answers are not sent to it). `paperText(id)` gives a
 * paper's text, or null when it is unavailable. The dataset's rows may be references
 * (`DatasetRowRef`, from `indexDataset`): each is then read when it is graded.
 */
export async function gradeRun(
  dataset: readonly (DatasetRow | DatasetRowRef)[],
  run: readonly (RunRow | RunRowRef)[],
  paperText: (paperId: string) => string | null,
  options: GradeRunOptions = {},
): Promise<GradeRunResult> {
  const byId = new Map(dataset.map((r) => [r.row_id, r]));
  const answered = new Set(run.map((r) => r.row_id));
  const unknownRows = run.filter((r) => !byId.has(r.row_id)).map((r) => r.row_id);
  const jobs = run
    .filter((r) => byId.has(r.row_id))
    .map((answer) => ({ row: byId.get(answer.row_id)!, run: answer }));
  const { judge, concurrency, onRow, signal, ...deterministic } = options;
  let done = 0;
  const grades = await gradeDeterministic(jobs, paperText, {
    ...deterministic,
    // The judge goes over the kept grades afterwards.
    keep: judge ? true : (deterministic.keep ?? true),
    onRow: (grade, i, answer) => {
      if (judge) return;
      grade.status.factual_accuracy = 'not-applicable';
      grade.status.completeness = 'not-applicable';
      onRow?.(grade, ++done, jobs.length, i, answer);
    },
  });
  let judgeFailures = 0;
  const judgeCalls = judge ? jobs.filter((j) => !j.run.error).length : 0;
  if (judge) {
    const lanes = Math.floor(Math.min(Math.max(1, concurrency ?? 4), Math.max(1, jobs.length)));
    await pLimit(lanes).map(jobs, async (job, i) => {
      const grade = grades[i]!;
      grade.judge = judge.id;
      const answer = wholeRun(job.run);
      if (await judgeRow(judge, wholeRow(job.row), answer, grade, signal)) judgeFailures++;
      onRow?.(grade, ++done, jobs.length, i, answer);
    });
  }
  return {
    grades,
    unknownRows,
    missingRows: dataset.filter((r) => !answered.has(r.row_id)).map((r) => r.row_id),
    judgeFailures,
    judgeCalls,
  };
}

/** Judges one row into `grade`; returns true when the judge failed. */
async function judgeRow(
  judge: RubricJudge,
  row: DatasetRow,
  answer: RunRow,
  grade: GradeRow,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (answer.error) {
    const f = failed<number>(`the answer failed: ${answer.error}`);
    setMetric(grade, 'factual_accuracy', f);
    setMetric(grade, 'completeness', f);
    return false;
  }
  let result: Awaited<ReturnType<typeof judge.judge>>;
  try {
    result = await judge.judge({ row, answer: answer.answer, citations: answer.citations }, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    result = { verdict: failed((error as Error).message), latencyMs: 0, costUsd: null, retries: 0 };
  }
  const v = result.verdict;
  if (v.status === 'scored') {
    setMetric(grade, 'factual_accuracy', { status: 'scored', value: v.value.factual_accuracy });
    setMetric(grade, 'completeness', { status: 'scored', value: v.value.completeness });
    grade.judge_justification = v.value.justification;
    grade.judge_grounding = v.value.grounding ?? null;
    return false;
  }
  const verdict = v.status === 'failed' ? failed<number>(v.reason) : notApplicable<number>(v.reason);
  setMetric(grade, 'factual_accuracy', verdict);
  setMetric(grade, 'completeness', verdict);
  return v.status === 'failed';
}

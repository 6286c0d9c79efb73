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
  /**
   * Judge each row this many times (default 1; `grade --repeats K`), each call with its own request
   * seed so a response cache keeps them apart (as `grade faithfulness --repeats` does).
   */
  repeats?: number;
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
  /** Judge calls that failed (with --repeats, a row may have several). */
  judgeFailures: number;
  /** Judge calls made (K per row sent; failed answers are not sent): with `judgeFailures`, "every call failed". */
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
  const { judge, concurrency, onRow, signal, repeats, ...deterministic } = options;
  const k = Math.max(1, Math.floor(repeats ?? 1));
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
  const judgeCalls = judge ? k * jobs.filter((j) => !j.run.error).length : 0;
  if (judge) {
    const lanes = Math.floor(Math.min(Math.max(1, concurrency ?? 4), Math.max(1, jobs.length)));
    await pLimit(lanes).map(jobs, async (job, i) => {
      const grade = grades[i]!;
      grade.judge = judge.id;
      const answer = wholeRun(job.run);
      // Awaited first: `judgeFailures += await …` would read the count before the call, losing lanes' adds.
      const failures = await judgeRow(judge, wholeRow(job.row), answer, grade, signal, k);
      judgeFailures += failures;
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

/**
 * Judges one row into `grade` `k` times; returns how many calls failed. Judged once, the row holds
 * the verdict. Judged k > 1 times (each call with request seed r, so the cache keeps them apart),
 * each metric is the mean of the calls that did not fail, `judge_repeats` holds every call's scores
 * (null where it failed), and the justification and grounding are the first successful call's; the
 * row fails only when every call failed — a failed call is never a 0.
 */
async function judgeRow(
  judge: RubricJudge,
  row: DatasetRow,
  answer: RunRow,
  grade: GradeRow,
  signal: AbortSignal | undefined,
  k: number,
): Promise<number> {
  if (answer.error) {
    const f = failed<number>(`the answer failed: ${answer.error}`);
    setMetric(grade, 'factual_accuracy', f);
    setMetric(grade, 'completeness', f);
    return 0;
  }
  const input = { row, answer: answer.answer, citations: answer.citations };
  // One call after another: `concurrency` stays the number of judge calls in flight.
  const verdicts: Awaited<ReturnType<typeof judge.judge>>['verdict'][] = [];
  for (let r = 0; r < k; r++) {
    try {
      verdicts.push((await judge.judge(input, signal, k > 1 ? r : undefined)).verdict);
    } catch (error) {
      if (signal?.aborted) throw error;
      verdicts.push(failed((error as Error).message));
    }
  }
  const scoredOnes = verdicts.flatMap((v) => (v.status === 'scored' ? [v.value] : []));
  const failures = verdicts.filter((v) => v.status === 'failed').length;
  if (k > 1) {
    const each = (m: 'factual_accuracy' | 'completeness') =>
      verdicts.map((v) => (v.status === 'scored' ? v.value[m] : null));
    grade.judge_repeats = { factual_accuracy: each('factual_accuracy'), completeness: each('completeness') };
  }
  const first = scoredOnes[0];
  if (first) {
    const mean = (m: 'factual_accuracy' | 'completeness') =>
      scoredOnes.reduce((a, v) => a + v[m], 0) / scoredOnes.length;
    setMetric(grade, 'factual_accuracy', { status: 'scored', value: mean('factual_accuracy') });
    setMetric(grade, 'completeness', { status: 'scored', value: mean('completeness') });
    grade.judge_justification = first.justification;
    grade.judge_grounding = first.grounding ?? null;
    return failures;
  }
  const v = verdicts.find((x) => x.status === 'failed') ?? verdicts[0]!;
  const reason = v.status === 'scored' ? '' : v.reason;
  const verdict = v.status === 'failed' ? failed<number>(reason) : notApplicable<number>(reason);
  setMetric(grade, 'factual_accuracy', verdict);
  setMetric(grade, 'completeness', verdict);
  return failures;
}

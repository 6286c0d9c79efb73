import pLimit from 'p-limit';
import type { AnswerGrade, FaithfulnessSettings } from './grade-answer.js';
import { gradeAnswer } from './grade-answer.js';
import type { FaithfulnessInput } from './input.js';

export interface BatchOptions {
  /** Concurrent model calls (all stages share the limit). */
  concurrency: number;
  /** Answer ids already graded (resume): skipped. */
  done?: ReadonlySet<string>;
  /** Called as each answer completes (e.g. to append it to the output file). */
  onGrade?: (grade: AnswerGrade) => void;
}

/**
 * Grades answers concurrently under one limit on model calls. Answers listed in `done` are skipped;
 * results arrive through `onGrade` as they complete and are also returned in input order.
 */
export async function gradeFaithfulnessBatch(
  inputs: FaithfulnessInput[],
  settings: FaithfulnessSettings,
  options: BatchOptions,
): Promise<AnswerGrade[]> {
  const lanes = Math.max(1, Math.floor(options.concurrency));
  // Model calls and answers get separate limits: an answer holding a slot while its calls wait
  // for one would deadlock.
  const limit = pLimit(lanes);
  const answers = pLimit(lanes);
  const todo = inputs.filter((input) => !options.done?.has(input.id));
  return Promise.all(
    todo.map((input) =>
      answers(async () => {
        const grade = await gradeAnswer(input, { ...settings, call: { ...settings.call, limit } });
        options.onGrade?.(grade);
        return grade;
      }),
    ),
  );
}

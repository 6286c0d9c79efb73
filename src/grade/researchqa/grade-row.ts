import { z } from 'zod';
import type { RubricGrounding } from './rubric-judge-grounding.js';

const score = z.number().nullable();

/**
 * One graded row. Metric fields carry the published names and unrounded values; `null` means not
 * applicable or failed — `status` says which, and `errors` says why a metric failed.
 */
export const GradeRowSchema = z.object({
  row_id: z.string(),
  model: z.string(),
  paper_id: z.string(),
  question_type: z.string(),
  domain: z.string(),
  citation_precision: score,
  section_coverage: score,
  citation_accuracy: score,
  /** Citation accuracy with the strict quote matcher (absent from grades written before it). */
  citation_accuracy_strict: score.default(null),
  refusal_correctness: score,
  factual_accuracy: score.default(null),
  completeness: score.default(null),
  judge_justification: z.string().nullable().default(null),
  judge: z.string().nullable().default(null),
  /**
   * Where the rubric judge's claims of support are (`rubric-judge-grounding.ts`): its own
   * factual_accuracy, the one that counts, and each evidence item located or unverified.
   */
  judge_grounding: z
    .custom<RubricGrounding | null>(
      (v) => v === null || (typeof v === 'object' && Array.isArray((v as RubricGrounding).evidence)),
      'judge_grounding must be null or an object with an evidence list',
    )
    .default(null),
  /**
   * With `grade --judge M --repeats K` (K > 1): each judged metric's score by each of the K judge
   * calls alone, in call order (null = that call failed). factual_accuracy and completeness are then
   * the mean of the calls that did not fail. Null when the row was judged once.
   */
  judge_repeats: z
    .object({
      factual_accuracy: z.array(z.number().nullable()),
      completeness: z.array(z.number().nullable()),
    })
    .nullable()
    .default(null),
  status: z.record(z.string(), z.enum(['scored', 'not-applicable', 'failed'])),
  errors: z.record(z.string(), z.string()).default({}),
  n_citations: z.number().int().nonnegative(),
  latency_seconds: z.number().nullable().default(null),
  cost_usd: z.number().nullable().default(null),
  answer_failed: z.boolean().default(false),
  /**
   * Per citation, in answer order: the quote matcher's rule in the grader's mode and in strict mode,
   * and whether only a prefix rule accepted it (empty when the quotes were not checked).
   */
  citation_rules: z
    .array(
      z.object({
        key: z.string(),
        rule: z.string(),
        strict_rule: z.string(),
        prefix_only: z.boolean(),
      }),
    )
    .default([]),
  /** The answer came from the response cache: counted as answered, left out of latency and cost. */
  cached: z.boolean().default(false),
  /** The run (or grading) label the row belongs to; null in files from before labels. */
  label: z.string().nullable().default(null),
  /** sha256 of the run row graded: a resume regrades a row whose answer changed. */
  run_row_sha256: z.string().nullable().default(null),
});
export type GradeRow = z.infer<typeof GradeRowSchema>;

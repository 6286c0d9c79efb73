import { z } from 'zod';

/**
 * An evidence group: any one of its verbatim alternatives satisfies it (OR within a group; a row's
 * groups are ANDed). Field names follow the published ResearchQA `eval_dataset.json` layout.
 */
export const EvidenceGroupSchema = z.object({
  section_label: z.string(),
  alternatives: z.array(z.string()),
});
export type EvidenceGroup = z.infer<typeof EvidenceGroupSchema>;

export const QuestionTypeSchema = z.enum(['lookup', 'comprehension', 'multi_hop', 'adversarial']);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

/**
 * A rubric for the judge: the published generator writes one string of 3–5 criteria (null for
 * lookup rows; the hub export writes "" there); a list of criteria is accepted too.
 */
export const JudgeRubricSchema = z.union([z.string(), z.array(z.string())]).nullable();
export type JudgeRubric = z.infer<typeof JudgeRubricSchema>;

/**
 * One benchmark question over one paper, in the published ResearchQA row layout (QASPER imports
 * map onto it): khoj-ai/openpaper server/evals/generate_dataset.py (0db211cc), `process_paper`.
 * Fields citegeist does not use (`paper_doi`, `paper_s3_url`, …) are kept as they are, so a
 * dataset read and written again keeps the published shape.
 */
export const DatasetRowSchema = z.looseObject({
  row_id: z.string().min(1),
  paper_id: z.string().min(1),
  // The generator writes `paper.get("domain")`, which may be null.
  domain: z.preprocess((v) => v ?? '', z.string()),
  question_type: QuestionTypeSchema,
  question: z.string().min(1),
  expected_answer: z.string().default(''),
  expected_references: z.array(EvidenceGroupSchema).default([]),
  judge_rubric: JudgeRubricSchema.default(null),
  required_sections: z.array(z.string()).default([]),
  reasoning_chain: z.string().nullable().default(null),
  false_premise: z.string().nullable().default(null),
  expected_refusal: z.boolean().nullable().default(null),
  metadata: z.record(z.string(), z.unknown()).default({}),
  /**
   * Set by the reader when the file used the earlier layout, `expected_references` as a flat list of
   * quotes (read as one single-quote group each, graded as that version's grader did, written back
   * flat). Never written to a file.
   */
  evidence_layout: z.enum(['groups', 'flat']).optional(),
});
export type DatasetRow = z.infer<typeof DatasetRowSchema>;
export type DatasetRowInput = z.input<typeof DatasetRowSchema>;

/** The rubric's criteria as lines for a prompt (a string rubric is one item; none → []). */
export function rubricItems(rubric: JudgeRubric | undefined): string[] {
  if (rubric === null || rubric === undefined) return [];
  if (typeof rubric === 'string') return rubric.trim() === '' ? [] : [rubric.trim()];
  return rubric.filter((x) => x.trim() !== '');
}

/** The published `eval_dataset.json` envelope. */
export const EvalDatasetFileSchema = z.object({
  version: z.string().default('1.0'),
  created_at: z.string().default(''),
  total_rows: z.number().int().nonnegative().optional(),
  rows: z.array(DatasetRowSchema),
});
export type EvalDatasetFile = z.infer<typeof EvalDatasetFileSchema>;

/**
 * A dataset row known by the fields grading needs for every row, read whole on demand: what a
 * large dataset is graded from without holding every row (see `indexDataset`).
 */
export interface DatasetRowRef {
  readonly row_id: string;
  readonly paper_id: string;
  readonly question_type: QuestionType;
  readonly domain: string;
  /** Evidence alternatives over all its groups (a measure of the row's grading work). */
  readonly alternatives: number;
  /** Whether its question is empty or white space (what the dataset check asks of every row). */
  readonly blankQuestion: boolean;
  /** The whole row (read from its file again). */
  load(): DatasetRow;
}

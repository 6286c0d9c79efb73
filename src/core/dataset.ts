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

/** One benchmark question over one paper (ResearchQA row layout; QASPER imports map onto it). */
export const DatasetRowSchema = z.object({
  row_id: z.string().min(1),
  paper_id: z.string().min(1),
  domain: z.string().default(''),
  question_type: QuestionTypeSchema,
  question: z.string().min(1),
  expected_answer: z.string().default(''),
  expected_references: z.array(EvidenceGroupSchema).default([]),
  judge_rubric: z.array(z.string()).default([]),
  required_sections: z.array(z.string()).default([]),
  reasoning_chain: z.string().nullable().default(null),
  false_premise: z.string().nullable().default(null),
  expected_refusal: z.boolean().nullable().default(null),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type DatasetRow = z.infer<typeof DatasetRowSchema>;
export type DatasetRowInput = z.input<typeof DatasetRowSchema>;

/** The published `eval_dataset.json` envelope. */
export const EvalDatasetFileSchema = z.object({
  version: z.string().default('1.0'),
  created_at: z.string().default(''),
  total_rows: z.number().int().nonnegative().optional(),
  rows: z.array(DatasetRowSchema),
});
export type EvalDatasetFile = z.infer<typeof EvalDatasetFileSchema>;

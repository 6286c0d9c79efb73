/**
 * Nugget bank v3: one file per request, the format of the TREC RAGTIME/NeuCLIR nugget library
 * (`nugget_data.py`, published in hltcoe/argue-viz `src/nugget_data.py` and used by Auto-ARGUE and
 * DoGMaTiQ). Questions are keyed by their text in `nugget_bank`, answers by their text in `answers`;
 * a nugget is correct when OR: one answer is given, AND: all are.
 *
 * Values are the objects `parsePythonJson` returns, validated here but never copied, so unknown
 * fields, key order and float formatting survive a read-write round trip. Merging follows the
 * reference library exactly (see `nugget-merge.ts`).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CitegeistError, describeIssues } from '../core/index.js';
import { orderedEntries } from '../python-compat/index.js';

export const AGGREGATOR_TYPES = ['AND', 'OR', 'NOT', 'SUM', 'Default'] as const;
export type AggregatorType = (typeof AGGREGATOR_TYPES)[number];

/** `Optional[int | str]` in the reference; floats are accepted too (weights). */
const Level = z.union([z.number(), z.string()]).nullish();

export const CreatorSchema = z.looseObject({
  is_human: z.boolean(),
  assessor_id: z.string().nullish(),
  llm_model: z.string().nullish(),
  llm_backend: z.string().nullish(),
  llm_prompt: z.array(z.string()).nullish(),
  llm_prompt_strategy: z.string().nullish(),
  source_data: z.array(z.unknown()).nullish(),
  creation_date: z.string().nullish(),
  contact: z.array(z.string()).nullish(),
  format: z.string().nullish(),
});
export type Creator = z.infer<typeof CreatorSchema>;

/** One creator or a list (the reference normalises both to a list). */
const Creators = z.union([CreatorSchema, z.array(CreatorSchema)]).nullish();

export const ReferenceSchema = z.looseObject({
  doc_id: z.string(),
  collection: z.string().nullish(),
  text: z.string().nullish(),
  offsets: z
    .looseObject({ start_offset: z.number(), end_offset: z.number(), encoding: z.string() })
    .nullish(),
  quality: Level,
  importance: Level,
  creator: Creators,
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type Reference = z.infer<typeof ReferenceSchema>;

export const AnswerSchema = z.looseObject({
  answer: z.string(),
  references: z.array(ReferenceSchema).nullish(),
  quality: Level,
  importance: Level,
  creator: Creators,
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type Answer = z.infer<typeof AnswerSchema>;

const common = {
  aggregator_type: z.enum(AGGREGATOR_TYPES).nullish(),
  query_id: z.string().nullish(),
  test_collection: z.string().nullish(),
  quality: Level,
  importance: Level,
  creator: Creators,
  metadata: z.record(z.string(), z.unknown()).nullish(),
  references: z.array(ReferenceSchema).nullish(),
  sub_nuggets: z.array(z.record(z.string(), z.unknown())).nullish(),
};

export const NuggetQuestionSchema = z.looseObject({
  question: z.string(),
  question_markup: z.unknown().optional(),
  answers: z.record(z.string(), AnswerSchema).nullish(),
  question_id: z.string().nullish(),
  ...common,
});
export type NuggetQuestion = z.infer<typeof NuggetQuestionSchema>;

export const NuggetClaimSchema = z.looseObject({
  claim: z.string(),
  claim_markup: z.unknown().optional(),
  related_question_text: z.string().nullish(),
  related_answer: z.array(AnswerSchema).nullish(),
  ...common,
});
export type NuggetClaim = z.infer<typeof NuggetClaimSchema>;

export type Nugget = NuggetQuestion | NuggetClaim;

export const NuggetBankSchema = z.looseObject({
  query_id: z.string().nullish(),
  title_query: z.string(),
  full_query: z.unknown().optional(),
  full_background: z.string().nullish(),
  test_collection: z.string().nullish(),
  format_version: z.string().optional(),
  nugget_bank: z.record(z.string(), z.union([NuggetQuestionSchema, NuggetClaimSchema])).nullish(),
  quality: Level,
  importance: Level,
  creator: Creators,
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type NuggetBank = z.infer<typeof NuggetBankSchema>;

export function isQuestion(nugget: Nugget): nugget is NuggetQuestion {
  return typeof (nugget as NuggetQuestion).question === 'string';
}

/**
 * Checks that a parsed value is a v3 nugget bank and returns the same object (not a copy, so
 * `parsePythonJson` notes are kept). Throws INVALID_INPUT naming the file and field.
 */
export function asNuggetBank(value: unknown, where: string): NuggetBank {
  const result = NuggetBankSchema.safeParse(value);
  if (!result.success) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} is not a v3 nugget bank: ${describeIssues(result.error)}.`,
      'Give a nugget bank v3 JSON file (query_id, title_query, nugget_bank{question: {question, answers}}), a legacy v1 file, or a NeuCLIR/nuggetizer JSONL.',
    );
  }
  return value as NuggetBank;
}

/** The bank's query id, or the reference's fallback: the MD5 of `title_query`. */
export function bankQueryId(bank: NuggetBank): string {
  return bank.query_id ?? md5(bank.title_query);
}

/** A question's id, or the reference's fallback: the MD5 of the question text. */
export function questionId(nugget: NuggetQuestion): string {
  return nugget.question_id ?? md5(nugget.question);
}

export function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** The bank's nuggets in file order, keyed as in `nugget_bank`. */
export function nuggetEntries(bank: NuggetBank): [string, Nugget][] {
  return bank.nugget_bank ? (orderedEntries(bank.nugget_bank) as [string, Nugget][]) : [];
}

/** The answers of a question nugget in file order (keys are the answer texts). */
export function answerEntries(nugget: NuggetQuestion): [string, Answer][] {
  return nugget.answers ? (orderedEntries(nugget.answers) as [string, Answer][]) : [];
}

/** The nugget's aggregation; the reference treats a missing one as OR (`question_nugget_to_dict`). */
export function aggregatorOf(nugget: NuggetQuestion): AggregatorType {
  return nugget.aggregator_type ?? 'OR';
}

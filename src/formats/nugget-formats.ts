/**
 * The other nugget layouts in circulation, converted to and from nugget bank v3:
 *
 * - legacy v1: `{query_id, items: [{question_text, question_id?, info{aggregator_type, importance},
 *   gold_answers: [answer | {answer, citations: [doc_id]}]}]}` (one object per request; the items
 *   are what the reference library's `question_nugget_to_dict` writes, hltcoe/argue-viz
 *   `src/nugget_data.py` @ ada21228);
 * - NeuCLIR 2024 evaluation JSONL: `{request_id, questions: [[question, [[answer, [doc_id…]]…]]…]}`
 *   (aggregation is not recorded there: every nugget is OR);
 * - nuggetizer JSONL (castorini/nuggetizer): `{qid, query, nuggets: [{text, importance}]}`, whose
 *   nuggets are statements (claims), not question-answer pairs.
 *
 * Unknown fields travel with the nugget (v1 item fields, NeuCLIR line fields on the bank), so a
 * file converted to v3 and back keeps them.
 */
import { z } from 'zod';
import { CitegeistError, describeIssues, quoteValue } from '../core/index.js';
import { orderedEntries, orderedObject } from '../python-compat/index.js';
import {
  answerEntries,
  bankQueryId,
  isQuestion,
  md5,
  type NuggetBank,
  type NuggetClaim,
  type NuggetQuestion,
  nuggetEntries,
} from './nugget-bank.js';
import { addNuggets, createNuggetBank, nuggetQuestion } from './nugget-merge.js';

const V1Answer = z.union([
  z.string(),
  z.looseObject({ answer: z.string(), citations: z.array(z.string()).nullish() }),
]);
const V1Item = z.looseObject({
  query_id: z.string().nullish(),
  question_text: z.string(),
  question_id: z.string().nullish(),
  info: z.record(z.string(), z.unknown()).nullish(),
  gold_answers: z.array(V1Answer),
});
export const LegacyV1Schema = z.looseObject({
  query_id: z.union([z.string(), z.number()]),
  items: z.array(V1Item),
});
export type LegacyV1 = z.infer<typeof LegacyV1Schema>;

function invalid(where: string, what: string, error: z.ZodError): never {
  throw new CitegeistError(
    'INVALID_INPUT',
    `${where} is not a ${what}: ${describeIssues(error)}.`,
    'Give nuggets in one of the formats of docs/reports.md (nugget bank v3, legacy v1, NeuCLIR 2024 evaluation JSONL, nuggetizer JSONL).',
  );
}

/** A legacy v1 object as a v3 bank (title_query = query_id, as the DoGMaTiQ banks have it). */
export function fromLegacyV1(value: unknown, where: string): NuggetBank {
  const parsed = LegacyV1Schema.safeParse(value);
  if (!parsed.success) invalid(where, 'legacy v1 nugget file', parsed.error);
  const v1 = value as LegacyV1;
  const queryId = String(v1.query_id);
  const bank = createNuggetBank({ query_id: queryId, title_query: queryId });
  for (const item of v1.items) {
    const { question_text, question_id, info, gold_answers, query_id, ...rest } = item;
    const { aggregator_type, importance, ...infoRest } = info ?? {};
    const nugget = nuggetQuestion({
      query_id: query_id ?? queryId,
      question: question_text,
      answers: gold_answers.map((a) =>
        typeof a === 'string' ? a : { answer: a.answer, references: a.citations ?? [] },
      ),
      ...(question_id ? { question_id } : {}),
      ...(typeof aggregator_type === 'string'
        ? { aggregator_type: aggregator_type as NuggetQuestion['aggregator_type'] }
        : {}),
      ...(typeof importance === 'number' || typeof importance === 'string' ? { importance } : {}),
    });
    if (Object.keys(infoRest).length > 0) (nugget as Record<string, unknown>).info = infoRest;
    Object.assign(nugget, rest);
    addNuggets(bank, nugget);
  }
  return bank;
}

/** v3 question fields that legacy v1 has no place for (unknown fields are kept). */
const V3_ONLY = new Set([
  'question_markup',
  'sub_nuggets',
  'references',
  'test_collection',
  'quality',
  'creator',
  'metadata',
  'info',
]);

/** A v3 bank as a legacy v1 object (`question_nugget_to_dict` per question; claims are refused). */
export function toLegacyV1(bank: NuggetBank): LegacyV1 {
  const items = nuggetEntries(bank).map(([key, n]) => {
    if (!isQuestion(n)) throw claimsUnsupported(bank, key, 'legacy v1');
    const { question, question_id, aggregator_type, importance, answers: _a, query_id, ...rest } = n;
    const extra = (rest as { info?: Record<string, unknown> }).info ?? {};
    const item: Record<string, unknown> = {
      query_id: query_id ?? bankQueryId(bank),
      question_text: question,
      question_id: question_id ?? md5(question),
      info: orderedObject([
        ['aggregator_type', aggregator_type ?? 'OR'],
        ...(importance != null ? ([['importance', importance]] as [string, unknown][]) : []),
        ...Object.entries(extra),
      ]),
      gold_answers: answerEntries(n).map(([, a]) => ({
        answer: a.answer,
        citations: (a.references ?? []).map((r) => r.doc_id),
      })),
    };
    for (const [k, v] of orderedEntries(rest)) if (!V3_ONLY.has(k)) item[k] = v;
    return item as LegacyV1['items'][number];
  });
  return { query_id: bankQueryId(bank), items };
}

const ID_FIELDS = ['request_id', 'topic_id', 'query_id', 'id'] as const;

const NeuclirLine = z.looseObject({
  questions: z.array(z.tuple([z.string(), z.array(z.tuple([z.string(), z.array(z.string())]))])),
});

/** One NeuCLIR 2024 evaluation JSONL line as a v3 bank (other line fields kept on the bank). */
export function fromNeuclirEvaluation(value: unknown, where: string): NuggetBank {
  const parsed = NeuclirLine.safeParse(value);
  if (!parsed.success) invalid(where, 'NeuCLIR 2024 evaluation line', parsed.error);
  const line = value as Record<string, unknown> & z.infer<typeof NeuclirLine>;
  const idField = ID_FIELDS.find((f) => typeof line[f] === 'string' || typeof line[f] === 'number');
  if (!idField) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} has no request id (looked for ${ID_FIELDS.join(', ')}).`,
      'Add "request_id" to the line.',
    );
  }
  const queryId = String(line[idField]);
  const { questions, [idField]: _id, ...rest } = line;
  const bank = createNuggetBank({ query_id: queryId, title_query: queryId });
  for (const [question, answers] of questions) {
    addNuggets(
      bank,
      nuggetQuestion({
        query_id: queryId,
        question,
        aggregator_type: 'OR',
        answers: answers.map(([answer, refs]) => ({ answer, references: refs })),
      }),
    );
  }
  Object.assign(bank, rest);
  if (idField !== 'request_id') Object.assign(bank, { neuclir_id_field: idField });
  return bank;
}

/** A v3 bank as one NeuCLIR 2024 evaluation line. */
export function toNeuclirEvaluation(bank: NuggetBank): Record<string, unknown> {
  const known = new Set(['query_id', 'title_query', 'format_version', 'nugget_bank', 'neuclir_id_field']);
  const idField = (bank as { neuclir_id_field?: string }).neuclir_id_field ?? 'request_id';
  const out: Record<string, unknown> = { [idField]: bankQueryId(bank) };
  out.questions = nuggetEntries(bank).map(([key, n]) => {
    if (!isQuestion(n)) throw claimsUnsupported(bank, key, 'NeuCLIR evaluation');
    return [
      n.question,
      answerEntries(n).map(([, a]) => [a.answer, (a.references ?? []).map((r) => r.doc_id)]),
    ];
  });
  for (const [k, v] of orderedEntries(bank)) if (!known.has(k)) out[k] = v;
  return out;
}

export const NuggetizerNuggetSchema = z.looseObject({
  text: z.string(),
  importance: z.string().nullish(),
  assignment: z.string().nullish(),
});
export const NuggetizerRecordSchema = z.looseObject({
  qid: z.union([z.string(), z.number()]),
  query: z.unknown().optional(),
  nuggets: z.array(NuggetizerNuggetSchema),
});
export type NuggetizerRecord = z.infer<typeof NuggetizerRecordSchema>;

/** Validates one nuggetizer JSONL record (nuggets, or assignments with `assignment` labels). */
export function asNuggetizerRecord(value: unknown, where: string): NuggetizerRecord {
  const parsed = NuggetizerRecordSchema.safeParse(value);
  if (!parsed.success) invalid(where, 'nuggetizer record', parsed.error);
  return value as NuggetizerRecord;
}

/** Nuggetizer nuggets as a v3 bank of claims (statements with `importance` vital/okay). */
export function fromNuggetizer(record: NuggetizerRecord): NuggetBank {
  const queryId = String(record.qid);
  const title = typeof record.query === 'string' ? record.query : queryId;
  const bank = createNuggetBank({ query_id: queryId, title_query: title });
  for (const n of record.nuggets) {
    const claim: NuggetClaim = { claim: n.text, query_id: queryId };
    if (n.importance != null) claim.importance = n.importance;
    addNuggets(bank, claim);
  }
  return bank;
}

/** A v3 bank of claims as a nuggetizer record (`{qid, query, nuggets: [{text, importance}]}`). */
export function toNuggetizer(bank: NuggetBank): NuggetizerRecord {
  return {
    qid: bankQueryId(bank),
    query: bank.title_query,
    nuggets: nuggetEntries(bank).map(([key, n]) => {
      if (isQuestion(n)) {
        throw new CitegeistError(
          'NUGGET_UNSUPPORTED',
          `The bank of ${quoteValue(bank.query_id)} holds the question ${quoteValue(key)}; nuggetizer files hold statements only.`,
          'Write this bank as nugget bank v3.',
        );
      }
      return n.importance == null ? { text: n.claim } : { text: n.claim, importance: String(n.importance) };
    }),
  };
}

function claimsUnsupported(bank: NuggetBank, key: string, format: string): CitegeistError {
  return new CitegeistError(
    'NUGGET_UNSUPPORTED',
    `The bank of ${quoteValue(bank.query_id)} holds the claim ${quoteValue(key)}; ${format} files hold question nuggets only.`,
    'Write this bank as nugget bank v3, which holds claims too.',
  );
}

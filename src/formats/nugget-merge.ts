/**
 * Building and merging nugget banks exactly as the reference library does (hltcoe/argue-viz
 * `src/nugget_data.py` @ ada21228: `NuggetBank.put_nugget`, `merge_nugget_questions`,
 * `Answer.merge_answers`, `merge_metadata`, `hash_answers`). Adding a question whose text is
 * already a key merges the two; its quirks are kept on purpose, so banks built here equal banks
 * built there:
 *
 * - answers with the same text are merged: the first's text, references concatenated (an empty
 *   list, not null, when neither had any), the first non-null quality and importance;
 * - the merged question keeps the first's id, markup, aggregator, query and collection, takes the
 *   LAST non-null quality and importance, concatenates creators and sub-nuggets, and drops the
 *   question-level `references` (the reference's merge does not carry them);
 * - metadata merge: `{...left, ...right, merged: [left, right]}` (a single metadata gets
 *   `merged: [{}, it]`).
 *
 * A merged question is written in the reference's field order; unknown fields of the first
 * question are kept after the known ones. Merging a claim, or a claim and a question, is refused
 * as in the reference (`TypeError` there).
 */
import { CitegeistError, quoteValue } from '../core/index.js';
import { orderedEntries, orderedObject } from '../python-compat/index.js';
import {
  type Answer,
  type Creator,
  isQuestion,
  md5,
  type Nugget,
  type NuggetBank,
  type NuggetQuestion,
  type Reference,
} from './nugget-bank.js';

type Meta = Record<string, unknown> | null | undefined;

const QUESTION_FIELDS = [
  'question',
  'question_markup',
  'answers',
  'sub_nuggets',
  'references',
  'question_id',
  'aggregator_type',
  'query_id',
  'test_collection',
  'quality',
  'importance',
  'creator',
  'metadata',
];
const ANSWER_FIELDS = ['answer', 'references', 'quality', 'importance', 'creator', 'metadata'];

/** `merge_metadata`: null when both are null; otherwise right over left plus `merged: [left, right]`. */
export function mergeMetadata(left: Meta, right: Meta): Record<string, unknown> | null {
  if (left == null && right == null) return null;
  const l = left ?? {};
  const r = right ?? {};
  return { ...l, ...r, merged: [l, r] };
}

function creatorList(c: Creator | Creator[] | null | undefined): Creator[] {
  if (c == null) return [];
  return Array.isArray(c) ? c : [c];
}

/** `Creator.merge_creators`: the two flattened into one list; null when it is empty. */
function mergeCreators(...all: (Creator | Creator[] | null | undefined)[]): Creator[] | null {
  const out = all.flatMap(creatorList);
  return out.length > 0 ? out : null;
}

/** A copy with the known fields in the reference's order, then the first value's unknown fields. */
function inOrder(
  fields: readonly string[],
  known: Record<string, unknown>,
  base: object,
): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const f of fields) if (known[f] !== null && known[f] !== undefined) entries.push([f, known[f]]);
  for (const [k, v] of orderedEntries(base as Record<string, unknown>)) {
    if (!fields.includes(k) && v !== null && v !== undefined) entries.push([k, v]);
  }
  return orderedObject(entries);
}

const firstNonNull = <T>(a: T | null | undefined, b: T | null | undefined) => a ?? b ?? null;

/** `Answer.merge_answers(a1, a2)`. */
export function mergeAnswers(a: Answer, b: Answer): Answer {
  const known: Record<string, unknown> = {
    answer: a.answer,
    references: [...(a.references ?? []), ...(b.references ?? [])],
    quality: firstNonNull(a.quality, b.quality),
    importance: firstNonNull(a.importance, b.importance),
    creator: mergeCreators(a.creator, b.creator),
    metadata: mergeMetadata(a.metadata, b.metadata),
  };
  return inOrder(ANSWER_FIELDS, known, a) as Answer;
}

/** `Answer.merge_answer_dicts`: answers keyed by text, repeated keys merged in order. */
export function mergeAnswerDicts(dicts: Record<string, Answer>[]): Record<string, Answer> {
  const merged = new Map<string, Answer>();
  for (const dict of dicts) {
    for (const [key, answer] of orderedEntries(dict) as [string, Answer][]) {
      const old = merged.get(key);
      merged.set(key, old ? mergeAnswers(old, answer) : answer);
    }
  }
  return orderedObject(merged);
}

/** `merge_nugget_questions(nuggets)`: the merged question (see the module note). */
export function mergeNuggetQuestions(nuggets: NuggetQuestion[]): NuggetQuestion {
  const base = nuggets[0];
  if (!base) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      "mergeNuggetQuestions: list of nuggets can't be empty.",
      'Pass at least one nugget.',
    );
  }
  let metadata: Record<string, unknown> | null = null;
  for (const n of nuggets) if (n.metadata != null) metadata = mergeMetadata(metadata, n.metadata);
  let quality: NuggetQuestion['quality'] = null;
  let importance: NuggetQuestion['importance'] = null;
  for (const n of nuggets) {
    quality = n.quality ?? quality;
    importance = n.importance ?? importance;
  }
  const known: Record<string, unknown> = {
    question: base.question,
    question_markup: base.question_markup,
    answers: mergeAnswerDicts(nuggets.flatMap((n) => (n.answers ? [n.answers] : []))),
    sub_nuggets: nuggets.flatMap((n) => n.sub_nuggets ?? []),
    references: null,
    // The reference assigns md5(question) at construction when a question has no id.
    question_id: base.question_id ?? md5(base.question),
    aggregator_type: base.aggregator_type,
    query_id: base.query_id,
    test_collection: base.test_collection,
    quality,
    importance,
    creator: mergeCreators(...nuggets.map((n) => n.creator)),
    metadata,
  };
  return inOrder(QUESTION_FIELDS, known, base) as NuggetQuestion;
}

function keyOf(nugget: Nugget): string {
  return isQuestion(nugget) ? nugget.question : nugget.claim;
}

/**
 * `NuggetBank.add_nuggets`: puts each nugget under its question (or claim) text; a key already
 * present is merged in place (its position kept, as a Python dict assignment keeps it).
 */
export function addNuggets(bank: NuggetBank, nuggets: Nugget | Nugget[]): NuggetBank {
  const entries = new Map<string, Nugget>(
    bank.nugget_bank ? (orderedEntries(bank.nugget_bank) as [string, Nugget][]) : [],
  );
  for (const nugget of Array.isArray(nuggets) ? nuggets : [nuggets]) {
    const key = keyOf(nugget);
    const old = entries.get(key);
    if (!old) entries.set(key, nugget);
    else if (isQuestion(old) && isQuestion(nugget)) entries.set(key, mergeNuggetQuestions([old, nugget]));
    else {
      throw new CitegeistError(
        'NUGGET_UNSUPPORTED',
        `The nugget ${quoteValue(key)} is already in the bank of ${quoteValue(bank.query_id)}; only two questions can be merged (the reference library refuses claims too).`,
        'Give the claim a different text, or merge the nuggets by hand.',
      );
    }
  }
  bank.nugget_bank = orderedObject(entries);
  return bank;
}

/** A new, empty v3 bank (fields in the reference's order). */
export function createNuggetBank(init: {
  query_id: string;
  title_query: string;
  full_query?: unknown;
  full_background?: string;
  creator?: Creator[];
  metadata?: Record<string, unknown>;
}): NuggetBank {
  const known: Record<string, unknown> = { format_version: 'v3', nugget_bank: {}, ...init };
  return inOrder(
    [
      'query_id',
      'title_query',
      'full_query',
      'full_background',
      'test_collection',
      'format_version',
      'nugget_bank',
      'quality',
      'importance',
      'creator',
      'metadata',
    ],
    known,
    {},
  ) as NuggetBank;
}

/** An answer given as text or as text with document ids (`Answer.from_lazy`). */
export type LazyAnswer = string | { answer: string; references?: (string | Reference)[] };

/** `NuggetQuestion.from_lazy`: answers from strings (duplicates merged, `hash_answers`). */
export function nuggetQuestion(init: {
  query_id: string;
  question: string;
  answers?: LazyAnswer[];
  aggregator_type?: NuggetQuestion['aggregator_type'];
  importance?: number | string;
  question_id?: string;
  creator?: Creator[];
  metadata?: Record<string, unknown>;
}): NuggetQuestion {
  const answers = init.answers?.map((a): Answer => {
    if (typeof a === 'string') return { answer: a };
    const out: Answer = { answer: a.answer };
    if (a.references) out.references = a.references.map((r) => (typeof r === 'string' ? { doc_id: r } : r));
    return out;
  });
  const known: Record<string, unknown> = {
    ...init,
    answers: answers ? mergeAnswerDicts(answers.map((a) => ({ [a.answer]: a }))) : null,
    question_id: init.question_id ?? md5(init.question),
  };
  return inOrder(QUESTION_FIELDS, known, {}) as NuggetQuestion;
}

/** A copy of a question with its fields in the reference's order (after fields were set in code). */
export function inQuestionOrder(nugget: NuggetQuestion): NuggetQuestion {
  return inOrder(QUESTION_FIELDS, nugget as Record<string, unknown>, nugget) as NuggetQuestion;
}

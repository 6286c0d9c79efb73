/**
 * Step 3, answer validation (METHODS §5 step 3; manestay/dogmatiq `step3_process_answers.py`):
 *
 * - cleaning (`clean_answers`): an answer whose lower-cased text starts with "unknown", "no info",
 *   "no details", "not " or "none ", or equals "none", is dropped; an answer equal to an earlier
 *   one but for case is merged into it, references deduplicated by doc id
 *   (`merge_references`); `num_answers` is refreshed. A nugget left without answers goes to the
 *   side bank of possibly unanswerable questions;
 * - aggregation (`aggregate_nugget_bank`): for several answers the model labels each YES/NO and
 *   says AND or OR; NO answers are removed and a nugget left with none is dropped. For one answer,
 *   a reply starting with "NO" drops the nugget, anything else keeps it as OR.
 *
 * Where the released code would stop on an unreadable multi-answer reply, the nugget keeps all its
 * answers as OR and the reply is recorded as `unparsable`.
 */
import {
  type Answer,
  answerEntries,
  inQuestionOrder,
  type NuggetQuestion,
  type Reference,
} from '../../formats/index.js';
import { extractJson, type LlmProvider } from '../../llm/index.js';
import { orderedObject } from '../../python-compat/index.js';
import { type CallOutcome, callText } from './llm-step.js';
import { validateAnswersPrompt } from './prompts/validate-answers-prompt.js';
import { type StepLog, stepKey } from './step-log.js';

export const UNANSWERED_PREFIX = ['unknown', 'no info', 'no details', 'not ', 'none '] as const;
export const UNANSWERED_EXACT = ['none'] as const;

const isUnanswered = (text: string) => {
  const t = text.toLowerCase();
  return (
    UNANSWERED_PREFIX.some((p) => t.startsWith(p)) || (UNANSWERED_EXACT as readonly string[]).includes(t)
  );
};

/** `merge_references`: both lists, the first occurrence of each doc id kept. */
function mergeReferences(a: Reference[] | null | undefined, b: Reference[] | null | undefined) {
  if (a == null) return b;
  if (b == null) return a;
  const seen = new Set<string>();
  return [...a, ...b].filter((r) => !seen.has(r.doc_id) && seen.add(r.doc_id));
}

/** Sets `metadata.num_answers` to the answer count (its position in metadata kept). */
function refreshCounts(nugget: NuggetQuestion): void {
  if (nugget.metadata && 'num_answers' in nugget.metadata) {
    nugget.metadata.num_answers = answerEntries(nugget).length;
  }
}

/** `clean_answers`: the nugget with unanswered answers dropped and case duplicates merged. */
export function cleanAnswers(nugget: NuggetQuestion): { nugget: NuggetQuestion; dropped: number } {
  if (!nugget.answers || answerEntries(nugget).length === 0) return { nugget, dropped: 0 };
  const kept = new Map<string, Answer>();
  const cased = new Map<string, string>();
  let dropped = 0;
  for (const [text, answer] of answerEntries(nugget)) {
    if (isUnanswered(text)) {
      dropped++;
      continue;
    }
    const lower = text.toLowerCase();
    const first = cased.get(lower);
    if (first !== undefined) {
      const into = kept.get(first)!;
      const references = mergeReferences(into.references, answer.references);
      kept.set(first, references === undefined ? into : { ...into, references });
      continue;
    }
    cased.set(lower, text);
    kept.set(text, answer);
  }
  const out: NuggetQuestion = { ...nugget, answers: orderedObject(kept) };
  if (nugget.metadata) out.metadata = { ...nugget.metadata };
  refreshCounts(out);
  return { nugget: out, dropped };
}

/** The model's verdict on one nugget (a line of `validation.jsonl`). */
export interface AnswerVerdict {
  request_id: string;
  question: string;
  answers: string[];
  /** 1-based answer numbers the model rejected. */
  removed: number[];
  aggregator: 'AND' | 'OR';
  /** The single answer was rejected: the nugget is dropped. */
  drop_nugget: boolean;
  status: 'ok' | 'unparsable';
  raw?: string;
}

/** Reads a multi-answer reply `[{"1": "YES"|"NO", …}, "AND"|"OR"]`; null when it is not that. */
export function parseMultiVerdict(
  text: string,
  count: number,
): { removed: number[]; aggregator: 'AND' | 'OR' } | null {
  const value = extractJson(text)?.value;
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [labels, agg] = value as [unknown, unknown];
  if (labels === null || typeof labels !== 'object' || Array.isArray(labels) || typeof agg !== 'string')
    return null;
  const aggregator = agg.trim().toUpperCase();
  if (aggregator !== 'AND' && aggregator !== 'OR') return null;
  const removed = new Set<number>();
  for (const [idx, label] of Object.entries(labels as Record<string, unknown>)) {
    if (typeof label !== 'string' || label.trim().toUpperCase() !== 'NO') continue;
    // `int(idx) - 1` within range; an unreadable index is skipped, as there.
    const n = /^\s*[+-]?\d+\s*$/.test(idx) ? Number(idx) : Number.NaN;
    if (n >= 1 && n <= count) removed.add(n);
  }
  return { removed: [...removed].sort((a, b) => a - b), aggregator };
}

export interface ValidationContext {
  requestId: string;
  llm: LlmProvider;
  log: StepLog<AnswerVerdict>;
  onCall?: (outcome: CallOutcome) => void;
}

/** One nugget's verdict, from the log or the model; null when the call failed (retried on rerun). */
export async function judgeAnswers(
  ctx: ValidationContext,
  nugget: NuggetQuestion,
): Promise<{ verdict: AnswerVerdict } | { failed: string }> {
  const answers = answerEntries(nugget).map(([text]) => text);
  const key = stepKey(ctx.requestId, nugget.question, ...answers);
  const logged = ctx.log.get(key);
  if (logged) return { verdict: logged };
  const reply = await callText(
    ctx.llm,
    validateAnswersPrompt(nugget.question, answers),
    answers.length > 1 ? 512 : 16,
  );
  ctx.onCall?.(reply);
  if (!reply.ok) return { failed: `answers of ${JSON.stringify(nugget.question)}: ${reply.reason}` };
  const base = { request_id: ctx.requestId, question: nugget.question, answers };
  let verdict: AnswerVerdict;
  if (answers.length > 1) {
    const parsed = parseMultiVerdict(reply.text, answers.length);
    verdict = parsed
      ? { ...base, ...parsed, drop_nugget: false, status: 'ok' }
      : { ...base, removed: [], aggregator: 'OR', drop_nugget: false, status: 'unparsable', raw: reply.text };
  } else {
    const drop = reply.text.trim().toUpperCase().startsWith('NO');
    verdict = { ...base, removed: [], aggregator: 'OR', drop_nugget: drop, status: 'ok' };
  }
  ctx.log.put(verdict);
  return { verdict };
}

/** The nugget after its verdict, or null when nothing of it is left. */
export function applyVerdict(nugget: NuggetQuestion, verdict: AnswerVerdict): NuggetQuestion | null {
  if (verdict.drop_nugget) return null;
  const removed = new Set(verdict.removed);
  const answers = answerEntries(nugget).filter((_, i) => !removed.has(i + 1));
  if (answers.length === 0) return null;
  const out = inQuestionOrder({
    ...nugget,
    answers: orderedObject(answers),
    aggregator_type: verdict.aggregator,
  });
  if (nugget.metadata) out.metadata = { ...nugget.metadata };
  refreshCounts(out);
  return out;
}

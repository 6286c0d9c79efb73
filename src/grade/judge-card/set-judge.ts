import { sha256Hex } from '../../core/index.js';
import type { ChatMessage, LlmProvider } from '../../llm/index.js';
import type { HumanItem } from '../human-labels/index.js';
import type { CallOptions } from '../vetscore/index.js';

/**
 * What one judge said about one item of a human set, as written to the judgments file:
 * `label` (a code of the set's scale), or `answer_scores` (a pointwise score of each answer of a
 * pair, turned into a preference by `rescaledScoreDifferences` once all pairs are judged), and for
 * judges shown a pair in both orders, `orders` (each order's verdict, mapped to answer 1 / answer 2).
 */
export type SetJudgment =
  | {
      status: 'scored';
      label?: number;
      answer_scores?: [number, number];
      orders?: { first: number; second: number };
      rationale?: string;
    }
  | { status: 'failed'; reason: string };

/** A judge run on the items of a human set (VETSCORE claim support, rubric, pairwise, lexical). */
export interface SetJudge {
  /** Model id (`openai:gpt-4.1-mini`) or `lexical`. */
  readonly model: string;
  /** The model's family, for the self-preference probe (`openai`, …); null offline. */
  readonly family: string | null;
  readonly kind: string;
  /** A hash of the prompt's fixed text: a card made with another prompt does not certify this one. */
  readonly promptVersion: string;
  /** The model requests judging `item` sends (for --dry-run); none for an offline judge. */
  requests(item: HumanItem): ChatMessage[][];
  judge(item: HumanItem, call: CallOptions): Promise<SetJudgment>;
}

/** The version of a prompt: the first 12 hex digits of the sha256 of its fixed text. */
export function promptVersionOf(...parts: string[]): string {
  return sha256Hex(parts.join('\u0000')).slice(0, 12);
}

export type JudgeProvider = LlmProvider;

/** An input field of an item as text ('' when absent). */
export function field(item: HumanItem, name: string): string {
  const v = item.inputs[name];
  return Array.isArray(v) ? v.join(' ') : (v ?? '');
}

import { z } from 'zod';
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../llm/index.js';
import type { HumanItem } from '../human-labels/index.js';
import type { CallOptions } from '../vetscore/index.js';
import { field, type JudgeProvider, promptVersionOf, type SetJudge, type SetJudgment } from './set-judge.js';

/** What each dimension a pairwise set names asks the judge to compare. */
export const PAIRWISE_DIMENSIONS: Record<string, string> = {
  correctness:
    'correctness: which answer states fewer wrong or unsupported things (compared with the reference answer when one is given)',
  completeness:
    'completeness: which answer covers more of what the question asks (and of the reference answer when one is given)',
  overall: 'overall quality: which answer serves the person asking better',
  correctness_topical:
    'topical correctness: which answer stays on the topic of the question and answers it correctly',
  coherence_logical:
    'logical coherence: which answer is better structured, its parts following from one another',
  coherence_stylistic: 'stylistic coherence: which answer keeps a consistent, fitting style',
  coverage_broad: 'broad coverage: which answer covers more of the different aspects of the question',
  coverage_deep: 'deep coverage: which answer goes into more depth on what it covers',
  consistency_internal: 'internal consistency: which answer contradicts itself less',
  quality_overall: 'overall quality: which answer serves the person asking better',
};

export const PairwiseSchema = z.object({
  better: z.enum(['A', 'B', 'tie']),
  rationale: z.string(),
});

const SYSTEM = [
  'You compare two answers to the same question on one named dimension and say which is better on it: "A", "B", or "tie" when neither is better.',
  'Judge only the named dimension. The order in which the answers are shown says nothing about their quality; do not prefer an answer for its length.',
  UNTRUSTED_NOTE,
  'Reply with JSON: {"better": "A"|"B"|"tie", "rationale": "one or two sentences"}.',
].join(' ');

/** A verdict of one order as a preference code for answer 2: −1 answer 1 better, 0 tie, 1 answer 2 better. */
function toCode(better: 'A' | 'B' | 'tie', answer2Shown: 'A' | 'B'): number {
  if (better === 'tie') return 0;
  return better === answer2Shown ? 1 : -1;
}

/**
 * A pairwise judge (new): shows both answers and asks which is better on the set's dimension. Each
 * pair is judged in both orders (answer 1 shown first, then answer 2 shown first); each verdict is
 * mapped back to the answers (`orders`). The label is the verdict when both orders agree and a tie
 * when they do not (a judge that flips with position has no preference the card can count); the
 * flip rate is reported on the card.
 */
export class PairwiseJudge implements SetJudge {
  readonly kind = 'pairwise';
  readonly model: string;
  readonly family: string;
  readonly promptVersion = promptVersionOf(SYSTEM);

  constructor(
    private readonly llm: JudgeProvider,
    private readonly dimension: string | null,
  ) {
    this.model = llm.id;
    this.family = llm.family;
  }

  private messages(item: HumanItem, first: string, second: string): ChatMessage[] {
    const dimension = PAIRWISE_DIMENSIONS[this.dimension ?? 'overall'] ?? PAIRWISE_DIMENSIONS.overall!;
    const reference = field(item, 'reference');
    const user = [
      `Dimension: ${dimension}.`,
      delimit('question', field(item, 'question')),
      ...(reference ? [delimit('reference_answer', reference)] : []),
      delimit('answer_A', first),
      delimit('answer_B', second),
      'Which answer is better on the dimension: A, B, or tie?',
    ].join('\n\n');
    return [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: user },
    ];
  }

  requests(item: HumanItem): ChatMessage[][] {
    const [a1, a2] = [field(item, 'answer_1'), field(item, 'answer_2')];
    return [this.messages(item, a1, a2), this.messages(item, a2, a1)];
  }

  async judge(item: HumanItem, call: CallOptions): Promise<SetJudgment> {
    const run = call.limit ?? (<T>(fn: () => Promise<T>) => fn());
    const [m1, m2] = this.requests(item) as [ChatMessage[], ChatMessage[]];
    const results = await Promise.all(
      [m1, m2].map((messages) =>
        run(() =>
          this.llm.generateObject({
            messages,
            schema: PairwiseSchema,
            schemaName: 'pairwise',
            temperature: 0,
            ...(call.signal ? { signal: call.signal } : {}),
          }),
        ),
      ),
    );
    for (const r of results) {
      call.onCall?.({ ok: r.ok, usage: r.usage, costUsd: r.costUsd, cached: r.cached });
      if (!r.ok) return { status: 'failed', reason: `pairwise judge failed: ${r.reason}` };
    }
    const [r1, r2] = results as [
      Extract<(typeof results)[0], { ok: true }>,
      Extract<(typeof results)[0], { ok: true }>,
    ];
    const first = toCode(r1.value.better, 'B');
    const second = toCode(r2.value.better, 'A');
    return {
      status: 'scored',
      label: first === second ? first : 0,
      orders: { first, second },
      rationale: r1.value.rationale,
    };
  }
}

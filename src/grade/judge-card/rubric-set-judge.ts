import { z } from 'zod';
import { DatasetRowSchema } from '../../core/index.js';
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../llm/index.js';
import type { HumanItem } from '../human-labels/index.js';
import { AnchoredRubricJudge, RUBRIC_SYSTEM_PROMPT, rubricUserPrompt } from '../researchqa/rubric-judge.js';
import type { CallOptions } from '../vetscore/index.js';
import { rubricPromptVersion } from './judge-identities.js';
import { field, type JudgeProvider, promptVersionOf, type SetJudge, type SetJudgment } from './set-judge.js';

/** Which rubric score stands for a set's dimension: RAGChecker's correctness, completeness, overall. */
function rubricScore(
  dimension: string | null,
  s: { factual_accuracy: number; completeness: number },
): number {
  if (dimension === 'correctness') return s.factual_accuracy;
  if (dimension === 'completeness') return s.completeness;
  return (s.factual_accuracy + s.completeness) / 2;
}

/**
 * citegeist's anchored rubric judge (ResearchQA, METHODS §2.5) on sets whose items have a reference
 * answer (RAGChecker's `gt_answer`): each answer of a pair is scored 1–5 against the reference, and
 * the pair's value is the two scores (`answer_scores`), made a preference by the RAGChecker protocol.
 */
export class ReferenceRubricJudge implements SetJudge {
  readonly kind = 'rubric';
  readonly model: string;
  readonly family: string;
  readonly promptVersion = rubricPromptVersion();
  private readonly judgeImpl: AnchoredRubricJudge;

  constructor(
    llm: JudgeProvider,
    private readonly dimension: string | null,
  ) {
    this.model = llm.id;
    this.family = llm.family;
    this.judgeImpl = new AnchoredRubricJudge(llm);
  }

  private input(item: HumanItem, answer: string) {
    const row = DatasetRowSchema.parse({
      row_id: item.id,
      paper_id: 'none',
      question_type: 'comprehension',
      question: field(item, 'question') || '(no question)',
      expected_answer: field(item, 'reference'),
    });
    return { row, answer, citations: [] };
  }

  requests(item: HumanItem): ChatMessage[][] {
    return ['answer_1', 'answer_2'].map((a) => [
      { role: 'system', content: RUBRIC_SYSTEM_PROMPT },
      { role: 'user', content: rubricUserPrompt(this.input(item, field(item, a))) },
    ]);
  }

  async judge(item: HumanItem, call: CallOptions): Promise<SetJudgment> {
    const run = call.limit ?? (<T>(fn: () => Promise<T>) => fn());
    const results = await Promise.all(
      ['answer_1', 'answer_2'].map((a) =>
        run(() => this.judgeImpl.judge(this.input(item, field(item, a)), call.signal)),
      ),
    );
    const scores: number[] = [];
    for (const r of results) {
      if (r.verdict.status !== 'scored')
        return {
          status: 'failed',
          reason: r.verdict.status === 'failed' ? r.verdict.reason : 'not applicable',
        };
      scores.push(rubricScore(this.dimension, r.verdict.value));
    }
    return { status: 'scored', answer_scores: [scores[0]!, scores[1]!] };
  }
}

export const UtilitySchema = z.object({
  score: z.number().int().min(1).max(5),
  justification: z.string(),
});

const UTILITY_SYSTEM = [
  'You rate how useful one answer is to the person who asked the question, on a 1-5 scale.',
  '5 = answers the question fully and correctly, well organised, nothing important missing.',
  '4 = answers it, with one minor gap or inaccuracy.',
  '3 = partly answers it: a substantive gap or error, or much irrelevant text.',
  '2 = touches the question but leaves most of it unanswered or is mostly wrong.',
  '1 = does not answer the question (empty, off-topic, refuses without reason, or wrong).',
  'Judge the answer as written; do not reward length for its own sake.',
  UNTRUSTED_NOTE,
  'Reply with JSON: {"score": 1-5, "justification": "one or two sentences"}.',
].join(' ');

/**
 * A reference-free 1–5 utility rubric, for sets without a reference answer (ALCE utility,
 * CrowdRAG-25): on a single-answer item the score is the label; on a pair, both answers are scored
 * (`answer_scores`).
 */
export class UtilityRubricJudge implements SetJudge {
  readonly kind = 'utility-rubric';
  readonly model: string;
  readonly family: string;
  readonly promptVersion = promptVersionOf(UTILITY_SYSTEM);

  constructor(private readonly llm: JudgeProvider) {
    this.model = llm.id;
    this.family = llm.family;
  }

  private answers(item: HumanItem): string[] {
    return 'answer' in item.inputs
      ? [field(item, 'answer')]
      : [field(item, 'answer_1'), field(item, 'answer_2')];
  }

  private messages(item: HumanItem, answer: string): ChatMessage[] {
    return [
      { role: 'system', content: UTILITY_SYSTEM },
      {
        role: 'user',
        content: [
          delimit('question', field(item, 'question')),
          delimit('answer', answer),
          'How useful is the answer (1-5)?',
        ].join('\n\n'),
      },
    ];
  }

  requests(item: HumanItem): ChatMessage[][] {
    return this.answers(item).map((a) => this.messages(item, a));
  }

  async judge(item: HumanItem, call: CallOptions): Promise<SetJudgment> {
    const run = call.limit ?? (<T>(fn: () => Promise<T>) => fn());
    const results = await Promise.all(
      this.answers(item).map((a) =>
        run(() =>
          this.llm.generateObject({
            messages: this.messages(item, a),
            schema: UtilitySchema,
            schemaName: 'utility',
            temperature: 0,
            ...(call.signal ? { signal: call.signal } : {}),
          }),
        ),
      ),
    );
    for (const r of results) {
      call.onCall?.({ ok: r.ok, usage: r.usage, costUsd: r.costUsd, cached: r.cached });
      if (!r.ok) return { status: 'failed', reason: `utility judge failed: ${r.reason}` };
    }
    const scores = results.map((r) => (r.ok ? r.value.score : 0));
    if (scores.length === 1)
      return {
        status: 'scored',
        label: scores[0]!,
        rationale: results[0]!.ok ? results[0]!.value.justification : '',
      };
    return { status: 'scored', answer_scores: [scores[0]!, scores[1]!] };
  }
}

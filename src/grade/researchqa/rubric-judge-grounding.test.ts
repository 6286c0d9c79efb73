import { describe, expect, it } from 'vitest';
import { DatasetRowSchema } from '../../core/index.js';
import { FakeLlm } from '../../testing/index.js';
import { AnchoredRubricJudge, RUBRIC_SYSTEM_PROMPT } from './rubric-judge.js';
import { cappedAccuracy, groundRubricVerdict } from './rubric-judge-grounding.js';

const row = DatasetRowSchema.parse({
  row_id: 'p_lookup0',
  paper_id: 'p',
  question_type: 'lookup',
  question: 'How large is the gain?',
  expected_answer: 'The gain is 3.2 points over the BERT baseline on the test set.',
  expected_references: [{ section_label: 'Results', alternatives: ['We gain 3.2 points.'] }],
});
// The answer carries a citation marker inside its first claim: a quote without it matches `gapped`.
const answer = 'The model gains 3.2 points [1] over the BERT baseline. It was trained for 10 epochs.';
const texts = { answer, expectedAnswer: row.expected_answer };

const items = {
  located: { claim: 'The model gains 3.2 points', expected_quote: 'The gain is 3.2 points' },
  gapped: { claim: 'gains 3.2 points over the BERT baseline', expected_quote: 'over the BERT baseline' },
  notInExpected: { claim: 'It was trained for 10 epochs', expected_quote: 'trained for 10 epochs' },
  notInAnswer: { claim: 'The model gains 5 points', expected_quote: 'The gain is 3.2 points' },
  emptyQuote: { claim: 'It was trained for 10 epochs', expected_quote: ' "" ' },
  missingQuote: { claim: 'It was trained for 10 epochs' },
};

describe('groundRubricVerdict', () => {
  it('locates the claim in the answer and the quote in the expected answer (exact and gapped)', () => {
    const g = groundRubricVerdict({ factual_accuracy: 5, evidence: [items.located, items.gapped] }, texts);
    expect(g).toMatchObject({
      judge_factual_accuracy: 5,
      factual_accuracy: 5,
      claimed_support: 2,
      unverified: 0,
    });
    const [located, gapped] = g.evidence;
    expect(located).toMatchObject({
      status: 'located',
      claim_span: { key: 'answer', start: 0, end: 26, text: 'The model gains 3.2 points', rule: 'exact' },
      span: { key: 'expected_answer', start: 0, end: 22, text: 'The gain is 3.2 points', rule: 'exact' },
    });
    expect(gapped?.status).toBe('located');
    expect(gapped?.claim_span?.rule).toBe('gapped');
    expect(gapped?.claim_span?.text).toBe('gains 3.2 points [1] over the BERT baseline');
    expect(gapped?.claim_span?.spans.map((s) => answer.slice(s.start, s.end))).toEqual([
      'gains 3.2 points',
      'over the BERT baseline',
    ]);
  });

  it.each([
    ['quote not in the expected answer', items.notInExpected, 'quote-not-in-expected-answer'],
    ['claim not in the answer', items.notInAnswer, 'claim-not-in-answer'],
    ['empty quote', items.emptyQuote, 'no-quote'],
    ['missing quote', items.missingQuote, 'no-quote'],
  ])('%s → unverified', (_name, item, reason) => {
    const g = groundRubricVerdict(
      { factual_accuracy: 5, evidence: [items.located, items.gapped, item] },
      texts,
    );
    expect(g.evidence[2]).toMatchObject({ status: 'unverified', reason });
    // One unverified claim of three is one substantive error: the anchors allow at most 3.
    expect(g).toMatchObject({
      judge_factual_accuracy: 5,
      factual_accuracy: 3,
      claimed_support: 3,
      unverified: 1,
    });
  });

  it('keeps the nearest expected-answer passage of an unlocated quote', () => {
    const g = groundRubricVerdict(
      {
        factual_accuracy: 4,
        evidence: [{ claim: 'The model gains 3.2 points', expected_quote: 'The gain is 2.3 points' }],
      },
      texts,
    );
    expect(g.evidence[0]?.nearest?.key).toBe('expected_answer');
    expect(g.evidence[0]?.nearest?.text).toContain('The gain is 3.2 points');
  });

  it.each([
    // [judge's score, items, counted score without the flag]
    [5, [items.located, items.gapped], 5],
    [4, [items.located, items.gapped, items.notInExpected], 3],
    [2, [items.located, items.gapped, items.notInExpected], 2],
    [5, [items.located, items.notInExpected, items.notInAnswer], 2],
    [5, [items.notInExpected, items.emptyQuote], 1],
    [4, [], 1], // a score above 1 claims support; no item shows any
    [1, [], 1], // a score of 1 claims none
  ] as const)(
    'score %i with %j items counts as %i, and as the judge said with the flag',
    (score, evidence, counted) => {
      const strict = groundRubricVerdict({ factual_accuracy: score, evidence: [...evidence] }, texts);
      expect(strict.factual_accuracy).toBe(counted);
      const trusted = groundRubricVerdict({ factual_accuracy: score, evidence: [...evidence] }, texts, {
        trustUnlocatedEvidence: true,
      });
      expect(trusted).toMatchObject({ factual_accuracy: score, trust_unlocated_evidence: true });
      expect(trusted.unverified).toBe(strict.unverified);
    },
  );

  it('reports no claim of support for a score of 1 without items', () => {
    expect(groundRubricVerdict({ factual_accuracy: 1, evidence: [] }, texts)).toMatchObject({
      claimed_support: 0,
      unverified: 0,
    });
  });

  it.each([
    [5, 3, 0, 5],
    [5, 3, 1, 3],
    [2, 3, 1, 2],
    [5, 3, 2, 2],
    [5, 3, 3, 1],
    [3, 1, 1, 1],
    [4, 5, 4, 2],
  ])('cappedAccuracy(%i, claimed %i, unverified %i) = %i', (score, claimed, unverified, out) => {
    expect(cappedAccuracy(score, claimed, unverified)).toBe(out);
  });
});

describe('AnchoredRubricJudge grounds its verdicts', () => {
  const reply = (score: number, evidence: unknown[]) =>
    JSON.stringify({ factual_accuracy: score, completeness: 4, justification: 'j', evidence });

  it('asks for verbatim quotes and says they are checked', () => {
    expect(RUBRIC_SYSTEM_PROMPT).toMatch(/character for character/);
    expect(RUBRIC_SYSTEM_PROMPT).toMatch(/Every quote is checked/);
  });

  it('scores located support as the judge said, and caps unverified support unless trusted', async () => {
    const input = { row, answer, citations: [] };
    const good = await new AnchoredRubricJudge(new FakeLlm([reply(5, [items.located])])).judge(input);
    expect(good.verdict).toMatchObject({
      status: 'scored',
      value: { factual_accuracy: 5, completeness: 4, grounding: { unverified: 0 } },
    });
    const evidence = [items.located, items.notInExpected];
    const bad = await new AnchoredRubricJudge(new FakeLlm([reply(5, evidence)])).judge(input);
    expect(bad.verdict).toMatchObject({
      status: 'scored',
      value: {
        factual_accuracy: 3,
        completeness: 4,
        grounding: { judge_factual_accuracy: 5, unverified: 1 },
      },
    });
    const trusted = await new AnchoredRubricJudge(new FakeLlm([reply(5, evidence)]), {
      trustUnlocatedEvidence: true,
    }).judge(input);
    expect(trusted.verdict).toMatchObject({ value: { factual_accuracy: 5, grounding: { unverified: 1 } } });
  });

  it('a reply without the evidence list is repaired, then failed (never 0)', async () => {
    const noEvidence = '{"factual_accuracy": 5, "completeness": 5, "justification": "j"}';
    const llm = new FakeLlm([noEvidence, noEvidence, noEvidence]);
    const result = await new AnchoredRubricJudge(llm).judge({ row, answer, citations: [] });
    expect(result.verdict.status).toBe('failed');
    expect(llm.calls).toHaveLength(3);
  });
});

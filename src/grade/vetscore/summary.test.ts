import { describe, expect, it } from 'vitest';
import type { AnswerGrade } from './grade-answer.js';
import {
  renderFaithfulnessSummary,
  renderUnsupported,
  summarizeFaithfulness,
  unsupportedAcross,
} from './summary.js';

function grade(
  id: string,
  status: AnswerGrade['status'],
  score: number | null,
  claims: number,
  scored: number,
  unsupported: number[] = [],
): AnswerGrade {
  return {
    id,
    question: '',
    status,
    score,
    p: 2.426,
    mode: 'separate',
    repeats: 1,
    judges: { decomposer: 'a', verifier: 'a', harm: 'a' },
    trust_unlocated_evidence: false,
    evidence: [],
    segments: [],
    coverage: {
      segments: 1,
      segments_failed: 0,
      claims,
      claims_scored: scored,
      claims_failed: claims - scored,
      rate: claims ? scored / claims : null,
    },
    failures: [],
    unsupported: unsupported.map((w, i) => ({
      segment: 0,
      claim: i,
      text: `${id}-${i}`,
      w,
      verdict: 'unsupported',
      rationale: null,
    })),
  };
}

describe('summarizeFaithfulness', () => {
  it('averages scored answers only and pools coverage over claims', () => {
    const s = summarizeFaithfulness([
      grade('a', 'scored', 0.5, 4, 3),
      grade('b', 'scored', 1, 2, 2),
      grade('c', 'not-applicable', null, 0, 0),
      grade('d', 'failed', null, 2, 0),
    ]);
    expect(s).toMatchObject({
      answers: 4,
      scored: 2,
      not_applicable: 1,
      failed: 1,
      mean_score: 0.75,
      claims: 8,
      claims_scored: 5,
      claims_failed: 3,
    });
    expect(s.coverage).toBeCloseTo(5 / 8, 12);
    expect(s.ci?.lower).toBeGreaterThanOrEqual(0.5);
    expect(s.ci?.upper).toBeLessThanOrEqual(1);
    expect(renderFaithfulnessSummary(s)).toMatch(/mean score\s+0\.750\s+95% CI/);
  });

  it('is n/a for an empty batch', () => {
    const s = summarizeFaithfulness([]);
    expect(s).toMatchObject({ answers: 0, mean_score: null, ci: null, coverage: null });
    expect(renderFaithfulnessSummary(s)).toMatch(/mean score\s+n\/a/);
  });
});

describe('unsupportedAcross', () => {
  it('sorts every unsupported claim of a batch by harm, highest first', () => {
    const list = unsupportedAcross([
      grade('a', 'scored', 0, 2, 2, [2, 5]),
      grade('b', 'scored', 0, 1, 1, [4]),
    ]);
    expect(list.map((u) => [u.answer, u.w])).toEqual([
      ['a', 5],
      ['b', 4],
      ['a', 2],
    ]);
    expect(renderUnsupported(list, 2)).toMatch(/1 more/);
    expect(renderUnsupported([])).toMatch(/no unsupported/);
  });
});

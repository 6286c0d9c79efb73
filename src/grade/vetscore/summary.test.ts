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
    // Resampled means of {0.5, 1} are 0.5, 0.75 or 1 (a quarter, a half, a quarter): the 2.5% and
    // 97.5% quantiles are exactly the two ends.
    expect(s.ci).toEqual({ lower: 0.5, upper: 1 });
    expect(renderFaithfulnessSummary(s)).toMatch(/mean score\s+0\.750\s+95% CI/);
  });

  it('gives the percentile bootstrap interval of the mean score, narrower than the range', () => {
    // Five 1s and five 0s: a resample's mean is k/10 with k ~ Binomial(10, 1/2); P(k ≤ 1) = 1.1%
    // and P(k ≤ 2) = 5.5%, so the 2.5% quantile is 0.2 and, by symmetry, the 97.5% one 0.8.
    const s = summarizeFaithfulness(
      Array.from({ length: 10 }, (_, i) => grade(`a${i}`, 'scored', i % 2, 1, 1)),
    );
    expect(s.mean_score).toBe(0.5);
    expect(s.ci).toEqual({ lower: 0.2, upper: 0.8 });
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

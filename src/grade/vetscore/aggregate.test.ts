import { describe, expect, it } from 'vitest';
import { type RiskWeightedClaim, riskWeightedScore } from './aggregate.js';

const c = (verified: 0 | 1, harm: 1 | 2 | 3 | 4 | 5): RiskWeightedClaim => ({ verified, harm });

describe('riskWeightedScore', () => {
  it.each([
    {
      name: 'one unsupported dose claim among low-harm supported claims, p = 1',
      segments: [{ claims: [c(1, 1), c(0, 5)] }, { claims: [c(1, 2)] }],
      p: 1,
      // ω = 1, 5 | 2 → P_1 = 5/6, P_2 = 0, P = 5/8
      score: 1 - 5 / 8,
      penalties: [5 / 6, 0],
    },
    {
      name: 'p = 2',
      segments: [{ claims: [c(0, 2), c(1, 3)] }],
      p: 2,
      // ω = 4, 9 → P = 4/13
      score: 9 / 13,
      penalties: [4 / 13],
    },
    {
      name: 'default p = 2.426',
      segments: [{ claims: [c(0, 5)] }, { claims: [c(1, 1), c(1, 1)] }],
      p: undefined,
      score: 1 - 5 ** 2.426 / (5 ** 2.426 + 2),
      penalties: [1, 0],
    },
    {
      name: 'p = 0 is plain precision',
      segments: [{ claims: [c(0, 5), c(1, 1), c(1, 4)] }, { claims: [c(0, 1)] }],
      p: 0,
      score: 2 / 4,
      penalties: [1 / 3, 1],
    },
    {
      name: 'all supported = 1',
      segments: [{ claims: [c(1, 5), c(1, 3)] }, { claims: [c(1, 1)] }],
      p: 2.426,
      score: 1,
      penalties: [0, 0],
    },
    {
      name: 'a segment without claims has a null penalty',
      segments: [{ claims: [] }, { claims: [c(0, 3)] }],
      p: 2.426,
      score: 0,
      penalties: [null, 1],
    },
    { name: 'no segments = not applicable', segments: [], p: 2, score: null, penalties: [] },
    {
      name: 'segments but no claims = not applicable',
      segments: [{ claims: [] }, { claims: [] }],
      p: 2,
      score: null,
      penalties: [null, null],
    },
  ])('$name', ({ segments, p, score, penalties }) => {
    const result = riskWeightedScore(segments, p === undefined ? undefined : { p });
    if (score === null) expect(result.score).toBeNull();
    else expect(result.score).toBeCloseTo(score, 12);
    expect(result.segmentPenalties).toHaveLength(penalties.length);
    penalties.forEach((pen, i) => {
      if (pen === null) expect(result.segmentPenalties[i]).toBeNull();
      else expect(result.segmentPenalties[i]).toBeCloseTo(pen, 12);
    });
  });

  it('weighs a high-harm error more as p grows', () => {
    const segments = [{ claims: [c(0, 5), c(1, 1), c(1, 1), c(1, 1)] }];
    const scores = [0, 1, 2.426, 4].map((p) => riskWeightedScore(segments, { p }).score ?? Number.NaN);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1] ?? 0);
  });

  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY])('rejects p = %s', (p) => {
    expect(() => riskWeightedScore([], { p })).toThrow(/harm exponent/);
  });

  it('rejects out-of-range judgments from untyped callers', () => {
    const bad = [{ claims: [{ verified: 2, harm: 6 }] }] as unknown as { claims: RiskWeightedClaim[] }[];
    expect(() => riskWeightedScore(bad)).toThrow(/verified must be 0 or 1/);
  });
});

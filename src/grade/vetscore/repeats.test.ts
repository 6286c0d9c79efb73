import { describe, expect, it } from 'vitest';
import { majorityVerified, medianHarm, poolAgreement, repeatAgreement } from './repeats.js';

describe('majorityVerified', () => {
  it.each([
    [[], null],
    [[1], 1],
    [[0, 1, 1], 1],
    [[1, 0], 0],
    [[0, 0, 1], 0],
  ] as const)('%j → %s', (values, expected) => expect(majorityVerified([...values])).toBe(expected));
});

describe('medianHarm', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[5, 1, 3], 3],
    [[2, 4], 4],
    [[1, 1, 5, 5], 5],
  ] as const)('%j → %s', (values, expected) => expect(medianHarm([...values])).toBe(expected));
});

describe('repeatAgreement', () => {
  it('counts identical claims and mean pairwise agreement, leaving out claims with a failed repeat', () => {
    const result = repeatAgreement([
      [1, 1, 1], // identical, pairwise 1
      [1, 0, 1], // pairwise 1/3
      [0, null, 0], // left out
    ]);
    expect(result.claims).toBe(2);
    expect(result.identical).toBe(0.5);
    expect(result.meanPairwise).toBeCloseTo((1 + 1 / 3) / 2, 12);
  });

  it('is null without repeated claims', () => {
    expect(repeatAgreement([[1], []])).toEqual({ claims: 0, identical: null, meanPairwise: null });
  });
});

describe('poolAgreement', () => {
  it('weights each part by its claims and skips empty parts', () => {
    const pooled = poolAgreement([
      { claims: 2, identical: 0.5, meanPairwise: 0.75 },
      { claims: 0, identical: null, meanPairwise: null },
      { claims: 6, identical: 1, meanPairwise: 1 },
    ]);
    expect(pooled).toEqual({ claims: 8, identical: (1 + 6) / 8, meanPairwise: (1.5 + 6) / 8 });
    expect(poolAgreement([])).toEqual({ claims: 0, identical: null, meanPairwise: null });
  });
});

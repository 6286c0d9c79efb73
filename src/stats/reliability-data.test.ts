import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import { reliabilityDataFromRatings, type UnitRating } from './reliability-data.js';

describe('reliabilityDataFromRatings', () => {
  it('pivots long rows into raters × units with nulls for gaps', () => {
    const rows: UnitRating[] = [
      { unit: 'c1', rater: 'ann', value: 1 },
      { unit: 'c2', rater: 'ann', value: 0 },
      { unit: 'c1', rater: 'bob', value: 1 },
      { unit: 'c3', rater: 'bob', value: null },
    ];
    expect(reliabilityDataFromRatings(rows)).toEqual({
      data: [
        [1, 0, null],
        [1, null, null],
      ],
      raters: ['ann', 'bob'],
      units: ['c1', 'c2', 'c3'],
    });
  });
  it('reproduces the binary example of Krippendorff (2011) from long rows (α = 1 − 76/84)', () => {
    const mary = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const dave = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    const rows = [
      ...mary.map((value, u) => ({ unit: u, rater: 'mary', value })),
      ...dave.map((value, u) => ({ unit: u, rater: 'dave', value })),
    ];
    expect(krippendorffAlpha(reliabilityDataFromRatings(rows).data, 'nominal')).toBeCloseTo(1 - 76 / 84, 12);
  });
  it('returns an empty matrix for no rows', () => {
    expect(reliabilityDataFromRatings([])).toEqual({ data: [], raters: [], units: [] });
  });
  it('keeps unit 1 and unit "1" apart', () => {
    const { units } = reliabilityDataFromRatings([
      { unit: 1, rater: 'a', value: 1 },
      { unit: '1', rater: 'a', value: 2 },
    ]);
    expect(units).toEqual([1, '1']);
  });
  it.each([
    [
      'a duplicate judgement',
      [
        { unit: 'c1', rater: 'ann', value: 1 },
        { unit: 'c1', rater: 'ann', value: 0 },
      ],
      /rater "ann" rated unit "c1" twice \(indices 0 and 1\)/,
    ],
    ['a NaN value', [{ unit: 'c1', rater: 'ann', value: Number.NaN }], /holds value NaN at index 0/],
  ])('refuses %s', (_, rows, message) => {
    expect(() => reliabilityDataFromRatings(rows)).toThrow(message);
  });
});

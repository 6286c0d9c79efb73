import { describe, expect, it } from 'vitest';
import {
  coincidenceMatrix,
  krippendorffAlpha,
  krippendorffAlphaOfUnits,
  type MeasurementLevel,
} from './krippendorff-alpha.js';

const _ = null;
/**
 * Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
 * twelve units, values 1..5, missing data. Published results: nominal 0.743, ordinal 0.815,
 * interval 0.849, ratio 0.797. (Unit 12 has a single value and is not pairable.)
 */
const paperExample = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];

/** Same paper, section A: binary data, two observers, no missing data; published α = 0.095. */
const binaryExample = [
  [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
  [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
];

describe('krippendorffAlpha on the published examples of Krippendorff (2011)', () => {
  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ] as [MeasurementLevel, number][])(
    '4 observers × 12 units, %s α = %d (to 3 decimals)',
    (level, published) => {
      expect(krippendorffAlpha(paperExample, level)).toBeCloseTo(published, 3);
    },
  );
  it('4 × 12 example, nominal, by hand: n = 40, n_c = 9, 13, 10, 5, 3, α = 1 − 39·8/(40² − 384)', () => {
    // off-diagonal coincidences: unit 2 (2,2,3,2) 6 pairs/3, unit 6 (1,2,3,4) 12 pairs/3,
    // unit 8 (1,1,2,1) 6 pairs/3 → 8; Σ n_c² = 81 + 169 + 100 + 25 + 9 = 384
    const m = coincidenceMatrix(paperExample);
    expect(m.total).toBeCloseTo(40, 12);
    expect(m.pairableUnits).toBe(11);
    expect(m.values).toEqual([1, 2, 3, 4, 5]);
    expect(m.marginals.map((n) => Math.round(n * 1e9) / 1e9)).toEqual([9, 13, 10, 5, 3]);
    expect(krippendorffAlpha(paperExample, 'nominal')).toBeCloseTo(1 - (39 * 8) / 1216, 12);
  });
  it('binary example, two observers: α = 1 − 19·4/(14·6) = 0.0952…', () => {
    expect(krippendorffAlpha(binaryExample, 'nominal')).toBeCloseTo(1 - 76 / 84, 12);
    // for binary data every level but ratio coincides with nominal
    expect(krippendorffAlpha(binaryExample, 'interval')).toBeCloseTo(1 - 76 / 84, 12);
    expect(krippendorffAlpha(binaryExample, 'ordinal')).toBeCloseTo(1 - 76 / 84, 12);
  });
});

describe('krippendorffAlpha edge cases', () => {
  const levels: MeasurementLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];
  it.each(levels)('%s: perfect agreement gives 1', (level) => {
    expect(
      krippendorffAlpha(
        [
          [1, 2, 3, _],
          [1, 2, 3, 4],
          [_, 2, 3, 4],
        ],
        level,
      ),
    ).toBe(1);
  });
  it.each(levels)('%s: returns null when α is undefined', (level) => {
    expect(krippendorffAlpha([], level)).toBeNull(); // no raters
    expect(krippendorffAlpha([[1, 2, 3]], level)).toBeNull(); // one rater: nothing pairable
    expect(
      krippendorffAlpha(
        [
          [1, _],
          [_, 2],
        ],
        level,
      ),
    ).toBeNull(); // no unit rated twice
    expect(
      krippendorffAlpha(
        [
          [3, 3, 3],
          [3, 3, _],
        ],
        level,
      ),
    ).toBeNull(); // no variation: D_e = 0
  });
  it('systematic disagreement gives a negative α', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 2, 1, 2],
          [2, 1, 2, 1],
        ],
        'nominal',
      )!,
    ).toBeLessThan(0);
  });
  it('does not depend on the order of raters or units', () => {
    const shuffled = [paperExample[2]!, paperExample[0]!, paperExample[3]!, paperExample[1]!].map((row) =>
      [...row].reverse(),
    );
    expect(krippendorffAlpha(shuffled, 'ordinal')).toBeCloseTo(
      krippendorffAlpha(paperExample, 'ordinal')!,
      12,
    );
  });
  it.each([
    ['NaN rating', [[1, Number.NaN]], 'nominal', /holds NaN at rater 0, unit 1/],
    [
      'string rating',
      [
        [1, 2],
        [1, '2' as unknown as number],
      ],
      'nominal',
      /holds "2" at rater 1, unit 1/,
    ],
    ['ragged rows', [[1, 2], [1]], 'nominal', /rater row 1 has 1 entries; row 0 has 2/],
    [
      'negative ratio value',
      [
        [1, -2],
        [1, 2],
      ],
      'ratio',
      /ratio data must be finite and ≥ 0/,
    ],
    ['unknown level', [[1], [1]], 'fuzzy', /level of measurement "fuzzy" is not known/],
  ])('refuses %s', (_name, data, level, message) => {
    expect(() => krippendorffAlpha(data, level as MeasurementLevel)).toThrow(message);
  });
});

describe('krippendorffAlphaOfUnits', () => {
  it.each(['nominal', 'ordinal', 'interval', 'ratio'] as MeasurementLevel[])(
    'equals krippendorffAlpha on the 4 × 12 example of Krippendorff (2011), %s',
    (level) => {
      const units = paperExample[0]!.map((_, u) =>
        paperExample.map((row) => row[u]).filter((v): v is number => v !== null),
      );
      expect(krippendorffAlphaOfUnits(units, level)).toBeCloseTo(krippendorffAlpha(paperExample, level)!, 12);
    },
  );
});

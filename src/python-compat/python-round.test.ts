import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pythonRound } from './python-round.js';

// Values from CPython's round(x, 3); Math.round(x * 1000) / 1000 and toFixed differ on several.
describe('pythonRound', () => {
  it.each([
    [0.0005, 0.001], // the double is slightly above the tie
    [2 / 3, 0.667],
    [0.6665, 0.666], // the double is slightly below the tie (Math.round gives 0.667)
    [0.0625, 0.062], // an exact binary tie: to even (toFixed gives 0.063)
    [0.1875, 0.188],
    [0.3125, 0.312],
    [-0.0625, -0.062],
    [1.0005, 1], // Math.round gives 1.001
    [0.0045, 0.004],
    [1, 1],
    [0, 0],
  ])('round(%d, 3) = %d', (x, expected) => {
    expect(pythonRound(x, 3)).toBe(expected);
  });

  it('agrees with CPython on every reference case (ties, k/n fractions, random values)', () => {
    const ref = JSON.parse(
      readFileSync(new URL('./__fixtures__/python-round-reference.json', import.meta.url), 'utf8'),
    ) as { cases: [number, number, number][] };
    const wrong = ref.cases.filter(([x, d, y]) => !Object.is(pythonRound(x, d), y));
    expect(ref.cases.length).toBeGreaterThan(1500);
    expect(wrong).toEqual([]);
  });

  it('refuses what Python would not round to a finite decimal', () => {
    // A library argument error: INVALID_ARGUMENT (issue 26), where it was a bare RangeError.
    const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    expect(() => pythonRound(Number.NaN, 3)).toThrow(invalid);
    expect(() => pythonRound(1, -1)).toThrow(invalid);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../testing/shared-data.js';
import { sequenceMatchingBlocks, sequenceRatio } from './sequence-ratio.js';

interface ReferencePair {
  a: string;
  b: string;
  ratio: number;
}

describe('sequenceRatio (difflib SequenceMatcher(None, a, b).ratio())', () => {
  // Expected values computed with CPython 3.11 difflib.
  it.each([
    ['', '', 1],
    ['', 'a', 0],
    ['a', '', 0],
    ['a', 'a', 1],
    ['a', 'b', 0],
    ['abcd', 'bcde', 0.75],
    ['abxcd', 'abcd', 0.8888888888888888],
    ['private Thread currentThread;', 'private volatile Thread currentThread;', 0.8656716417910447],
    ['qabxcd', 'abycdf', 0.6666666666666666],
    // Code points, not UTF-16 units: the emoji is one element on each side.
    ['a\u{1F600}b', 'a\u{1F600}c', 0.6666666666666666],
  ])('ratio(%j, %j) = %d', (a, b, expected) => {
    expect(sequenceRatio(a, b)).toBeCloseTo(expected, 14);
  });

  it('applies the autojunk heuristic only when b has 200+ elements', () => {
    // 'a' occurs 199 times in b (> 1 + 200 // 100 = 3): popular, so it is not indexed; the empty
    // best match is still extended by one equal element at the front (CPython 3.11 values).
    const b200 = `${'a'.repeat(199)}b`;
    expect(sequenceRatio('a', b200)).toBeCloseTo(0.009950248756218905, 14);
    expect(sequenceRatio('a', `${'a'.repeat(198)}b`)).toBeCloseTo(0.01, 14);
    // 'e' is popular in b: the run of e's in a cannot be found through the index.
    expect(sequenceRatio(`xyz${'e'.repeat(10)}`, `${'e'.repeat(250)}xyz`)).toBeCloseTo(
      0.022556390977443608,
      14,
    );
    expect(sequenceRatio(`xyz${'e'.repeat(10)}`, `${'e'.repeat(250)}xyz`, { autojunk: false })).toBeCloseTo(
      0.07518796992481203,
      14,
    );
    const a = `x${'a'.repeat(5)}`;
    const b = `${'a'.repeat(300)}x${'a'.repeat(5)}`;
    expect(sequenceRatio(a, b)).toBeCloseTo(0.038461538461538464, 14);
  });

  it('is not symmetric, exactly like difflib (autojunk depends on b)', () => {
    const short = `b${'e'.repeat(3)}b`;
    const long = `${'e'.repeat(5)}q`.repeat(40);
    expect(sequenceRatio(short, long)).toBe(0);
    expect(sequenceRatio(long, short)).toBeCloseTo(0.024489795918367346, 14);
  });

  it('matches every pair of the shared difflib reference within 1e-12', () => {
    const file = JSON.parse(
      readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8'),
    ) as {
      pairs: ReferencePair[];
    };
    expect(file.pairs.length).toBe(300);
    let worst = 0;
    for (const pair of file.pairs) {
      const got = sequenceRatio(pair.a.toLowerCase(), pair.b.toLowerCase());
      worst = Math.max(worst, Math.abs(got - pair.ratio));
    }
    expect(worst).toBeLessThanOrEqual(1e-12);
  });

  it.skipIf(!existsSync(sharedDataPath('stats', 'difflib_ratio_reference.json')))(
    'matches CPython with the arguments swapped too (the order decides 28 of the 300 at 0.5; needs ../shared/data)',
    () => {
      const file = JSON.parse(
        readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8'),
      ) as { pairs: ReferencePair[] };
      const reversed = JSON.parse(
        readFileSync(new URL('./__fixtures__/difflib-reversed-ratios.json', import.meta.url), 'utf8'),
      ) as { ratios: number[] };
      let worst = 0;
      let decidedByOrder = 0;
      for (const [i, pair] of file.pairs.entries()) {
        const got = sequenceRatio(pair.b.toLowerCase(), pair.a.toLowerCase());
        worst = Math.max(worst, Math.abs(got - reversed.ratios[i]!));
        if (pair.ratio >= 0.5 !== reversed.ratios[i]! >= 0.5) decidedByOrder++;
      }
      expect(worst).toBeLessThanOrEqual(1e-12);
      expect(decidedByOrder).toBe(28);
    },
  );

  // Made-up pairs over 200 characters (CPython 3.11 values): which string is `b` decides which
  // one loses its frequent characters to autojunk, and so which side of 0.5 the ratio falls.
  it.each([
    [
      'the model is trained on ten thousand annotated sentences drawn from the scientific literature and evaluated on a held out test set of two thousand sentences where it reaches an accuracy of 42.7 percent which is well above the baseline',
      'the model is trained on ten thousand sentences and evaluated on a held out set where it reaches 92.7 percent accuracy',
      0.6267806267806267,
      0.4444444444444444,
    ],
    [
      'we report the mean and standard deviation over five random seeds for every model and dataset in table 3',
      'table 3 reports the mean and standard deviation over five random seeds for every model and dataset; the differences between the three strongest systems are smaller than one standard deviation in most settings, so we do not claim a winner',
      0.01764705882352941,
      0.5764705882352941,
    ],
  ])('long pair: ratio(a, b) and ratio(b, a) differ as in CPython', (a, b, ab, ba) => {
    expect(sequenceRatio(a, b)).toBeCloseTo(ab, 14);
    expect(sequenceRatio(b, a)).toBeCloseTo(ba, 14);
  });
});

describe('sequenceMatchingBlocks', () => {
  it.each([
    [
      'abxcd',
      'abcd',
      [
        { a: 0, b: 0, size: 2 },
        { a: 3, b: 2, size: 2 },
      ],
    ],
    ['', 'abc', []],
    ['abc', 'abc', [{ a: 0, b: 0, size: 3 }]],
  ])('blocks(%j, %j)', (a, b, expected) => {
    expect(sequenceMatchingBlocks(a, b)).toEqual(expected);
  });
});

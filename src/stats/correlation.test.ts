import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../testing/shared-data.js';
import { pearson, spearman } from './correlation.js';
import { kendallTauB, kendallTauC } from './kendall.js';
import { rankData } from './rank.js';

type Fn = (x: readonly number[], y: readonly number[]) => number | null;
const fns: [string, Fn][] = [
  ['pearson', pearson],
  ['spearman', spearman],
  ['kendallTauB', kendallTauB],
  ['kendallTauC', kendallTauC],
];

interface ReferenceCase {
  dataset: string;
  model_file: string;
  x: number[];
  y: number[];
  spearman_rho: number;
  kendall_tau_b: number;
  kendall_tau_c: number;
  pearson_r: number;
}
const reference = JSON.parse(
  readFileSync(sharedDataPath('stats', 'rank_correlation_reference.json'), 'utf8'),
) as { cases: ReferenceCase[] };

describe('parity with SciPy 1.17 on tie-heavy ALCE samples (rank_correlation_reference.json)', () => {
  it('holds four cases', () => expect(reference.cases.length).toBe(4));
  it.each(reference.cases.map((c) => [`${c.dataset} ${c.model_file}`, c] as const))('%s', (_, c) => {
    expect(Math.abs(spearman(c.x, c.y)! - c.spearman_rho)).toBeLessThan(1e-9);
    expect(Math.abs(pearson(c.x, c.y)! - c.pearson_r)).toBeLessThan(1e-9);
    expect(Math.abs(kendallTauB(c.x, c.y)! - c.kendall_tau_b)).toBeLessThan(1e-9);
    expect(Math.abs(kendallTauC(c.x, c.y)! - c.kendall_tau_c)).toBeLessThan(1e-9);
  });
});

// Expected values computed with SciPy 1.17.1 (spearmanr, pearsonr, kendalltau variant b / c).
const small: [string, number[], number[], [number, number, number, number]][] = [
  [
    'ties in both',
    [1, 2, 2, 3, 4, 4, 4, 5],
    [2, 1, 3, 3, 5, 4, 4, 6],
    [0.886796350347864, 0.9256265453136692, 0.8406728074767076, 0.8203125],
  ],
  ['n = 2', [1, 2], [3, 1], [-1, -1, -1, -1]],
  ['n = 3', [0.5, -1.25, 3], [2, 2.5, 10], [0.8879726484056191, 0.5, 1 / 3, 1 / 3]],
  [
    '5 x 2 table',
    [1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
    [0, 0, 0, 1, 1, 1, 1, 1, 0, 1],
    [0.43301270189221924, 0.4330127018922193, 0.3872983346207417, 0.48],
  ],
  ['reversed', [1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [-1, -1, -1, -1]],
];

describe.each(fns.map(([name, fn], k) => [name, fn, k] as const))('%s', (_name, fn, k) => {
  it.each(small)('%s', (_, x, y, expected) => {
    expect(fn(x, y)).toBeCloseTo(expected[k]!, 12);
  });

  it.each([
    ['empty input', [], []],
    ['one pair', [1], [2]],
    ['x all tied', [3, 3, 3, 3], [1, 2, 3, 4]],
    ['y all tied', [1, 2, 3, 4], [0.1, 0.1, 0.1, 0.1]],
    ['both all tied', [2, 2], [5, 5]],
  ])('returns null (not applicable) for %s', (_, x, y) => {
    expect(fn(x, y)).toBeNull();
  });

  it.each([
    ['NaN in x', [1, Number.NaN, 3], [1, 2, 3], /argument "x" holds NaN at index 1/],
    ['Infinity in y', [1, 2, 3], [1, 2, Number.POSITIVE_INFINITY], /argument "y" holds Infinity at index 2/],
    ['undefined in x', [1, undefined as unknown as number], [1, 2], /"x" holds undefined at index 1/],
    ['length mismatch', [1, 2, 3], [1, 2], /"x" has 3 values but "y" has 2/],
  ])('refuses %s', (_, x, y, message) => {
    expect(() => fn(x, y)).toThrow(message);
  });
});

describe('kendall on larger samples', () => {
  it('agrees with a direct O(n²) pair count (n = 2000, many ties)', () => {
    let s = 7;
    const next = () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    const x = Array.from({ length: 2000 }, () => Math.floor(next() * 7));
    const y = x.map((v) => Math.floor(v / 2 + next() * 4));
    let cd = 0;
    let tx = 0;
    let ty = 0;
    for (let i = 0; i < x.length; i++)
      for (let j = i + 1; j < x.length; j++) {
        const a = Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
        cd += a;
        if (x[i] === x[j]) tx++;
        if (y[i] === y[j]) ty++;
      }
    const total = (x.length * (x.length - 1)) / 2;
    expect(kendallTauB(x, y)).toBeCloseTo(cd / Math.sqrt((total - tx) * (total - ty)), 12);
  });
});

describe('rankData', () => {
  it.each([
    ['empty', [], []],
    ['single', [4], [1]],
    ['all tied', [2, 2, 2], [2, 2, 2]],
    // SciPy 1.17.1 rankdata(method='average')
    ['mixed ties', [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], [4.5, 1.5, 6, 1.5, 8, 11, 3, 10, 8, 4.5, 8]],
    ['negative and fractional', [-0.5, 2.25, -0.5, -3], [2.5, 4, 2.5, 1]],
  ])('%s', (_, x, expected) => {
    expect(rankData(x)).toEqual(expected);
  });
  it('refuses NaN naming the index', () => {
    expect(() => rankData([1, 2, Number.NaN])).toThrow(/rankData: argument "x" holds NaN at index 2/);
  });
});

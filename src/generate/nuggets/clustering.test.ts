import { describe, expect, it } from 'vitest';
import { pythonInt } from '../../python-compat/python-int.js';
import { candidatePairs } from './candidate-pairs.js';
import { isEnglish } from './english-filter.js';
import { parseCanonical, parseParaphrase } from './paraphrase-merge.js';
import { singleLinkClusters } from './union-find.js';

/** A unit vector at `deg` degrees in the plane (cosine between two = cos of the angle between). */
const at = (deg: number) =>
  Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);
const COS_THRESHOLD_DEG = (Math.acos(0.9) * 180) / Math.PI; // ≈ 25.84°

describe('singleLinkClusters on hand-made similarity graphs', () => {
  it('a transitive chain is one cluster even where its ends are not linked', () => {
    expect(
      singleLinkClusters(4, [
        [0, 1],
        [1, 2],
        [2, 3],
      ]),
    ).toEqual([[0, 1, 2, 3]]);
  });

  it('singletons come after the linked clusters, in input order; clusters by smallest member', () => {
    expect(
      singleLinkClusters(7, [
        [5, 6],
        [1, 3],
        [3, 5],
        [2, 4],
      ]),
    ).toEqual([[1, 3, 5, 6], [2, 4], [0]]);
    expect(singleLinkClusters(3, [])).toEqual([[0], [1], [2]]);
  });

  it('a pair given twice, or in both orders, or a self pair changes nothing', () => {
    expect(
      singleLinkClusters(3, [
        [0, 2],
        [2, 0],
        [0, 2],
        [1, 1],
      ]),
    ).toEqual([[0, 2], [1]]);
  });

  it('refuses a pair outside the items', () => {
    expect(() => singleLinkClusters(2, [[0, 2]])).toThrow(/outside/);
  });
});

describe('candidatePairs (cosine ≥ threshold)', () => {
  it('keeps pairs at the threshold, drops those just below; sorted by (i, j)', () => {
    const v = [at(0), at(COS_THRESHOLD_DEG - 0.01), at(90), at(90 + COS_THRESHOLD_DEG + 0.5), at(0)];
    const { pairs, method } = candidatePairs(v, 0.9);
    expect(method).toBe('exact');
    expect(pairs.map((p) => [p.i, p.j])).toEqual([
      [0, 1],
      [0, 4],
      [1, 4],
    ]);
    expect(pairs[1]!.similarity).toBeCloseTo(1, 12);
  });

  it('ties: equal similarities are all kept; a chain of near neighbours gives only adjacent pairs', () => {
    const step = COS_THRESHOLD_DEG * 0.9; // each neighbour passes, two steps apart do not
    const v = [0, 1, 2, 3].map((k) => at(k * step));
    const { pairs } = candidatePairs(v, 0.9);
    expect(pairs.map((p) => [p.i, p.j])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(pairs[0]!.similarity).toBeCloseTo(pairs[2]!.similarity, 6);
    expect(
      singleLinkClusters(
        4,
        pairs.map((p) => [p.i, p.j] as const),
      ),
    ).toEqual([[0, 1, 2, 3]]);
  });

  it('the HNSW path (past exactLimit) finds the same pairs as the exact scan on clustered vectors', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648 - 0.5;
    };
    const d = 32;
    const centres = Array.from({ length: 40 }, () => Array.from({ length: d }, rand));
    const v = Array.from({ length: 600 }, (_, i) =>
      Float32Array.from(centres[i % 40]!.map((c) => c + rand() * 0.12)),
    );
    const exact = candidatePairs(v, 0.9);
    const ann = candidatePairs(v, 0.9, { exactLimit: 100 });
    expect(ann.method).toBe('ann');
    expect(exact.pairs.length).toBeGreaterThan(500);
    expect(ann.pairs.map((p) => `${p.i}-${p.j}`)).toEqual(exact.pairs.map((p) => `${p.i}-${p.j}`));
  });

  it('handles zero vectors and fewer than two questions', () => {
    expect(candidatePairs([], 0.9).pairs).toEqual([]);
    expect(candidatePairs([new Float32Array(2), new Float32Array(2)], 0.9).pairs).toEqual([]);
  });
});

describe('reading model replies', () => {
  it.each([
    ['{"index": 2, "explanation": "clearest"}', 1, 'clearest', false],
    ['{"index": "3", "explanation": "e"}', 2, 'e', false],
    ['{"index": 2.7, "explanation": "e"}', 1, 'e', false], // int(2.7) = 2
    ['{"index": 0, "explanation": "e"}', 2, 'e', false], // questions[-1]: the last
    ['{"index": -1, "explanation": "e"}', 1, 'e', false], // questions[-2]
    // An index Python cannot use: the first question; the reply's explanation is kept, as released.
    ['{"index": "2.0", "explanation": "e"}', 0, 'e', true],
    ['{"index": 9, "explanation": "e"}', 0, 'e', true],
    ['{"explanation": "no index"}', 0, 'no index', true],
    // No explanation either (the release stops with KeyError): the warning it prints is kept.
    ['I cannot help with that.', 0, 'WARNING: defaulted to first -- None, None', true],
    ['{"index": "x"}', 0, 'WARNING: defaulted to first -- None, x', true],
    ['```json\n{"index": "1"}\n```', 0, '', false],
  ])('canonical reply %s → question %i', (reply, chosen, explanation, defaulted) => {
    expect(parseCanonical(reply, ['a', 'b', 'c'])).toEqual({ chosen, explanation, defaulted });
  });

  it('python int()', () => {
    expect([
      pythonInt(' 7 '),
      pythonInt('1_0'),
      pythonInt(true),
      pythonInt(null),
      pythonInt('x'),
      pythonInt(Number.NaN),
    ]).toEqual([7, 10, 1, null, null, null]);
  });

  it.each([
    ['{"explanation": "same", "paraphrase": "YES"}', { paraphrase: 'YES', explanation: 'same' }],
    ['{"paraphrase": "no"}', { paraphrase: 'NO' }],
    ['Yes, they ask the same.', { paraphrase: 'YES' }],
    ['{"paraphrase": "maybe"}', null],
    ['As an AI I cannot judge this.', null],
  ])('paraphrase reply %s', (reply, expected) => {
    expect(parseParaphrase(reply)).toEqual(expected);
  });

  it('English filter: Latin and Greek letters pass; Chinese, Persian, Cyrillic fail', () => {
    expect(isEnglish('What does the α-helix of protein X do?')).toBe(true);
    expect(isEnglish('Where is the café Müller?')).toBe(true);
    expect(isEnglish('Who is 辛顿?')).toBe(false);
    expect(isEnglish('Что сказал Хинтон?')).toBe(false);
    expect(isEnglish('هینتون کیست')).toBe(false);
  });
});

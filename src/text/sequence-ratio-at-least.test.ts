import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../testing/shared-data.js';
import { sequenceMatchingBlocks, sequenceRatio, sequenceRatioAtLeast } from './sequence-ratio.js';

const reference = JSON.parse(
  readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8'),
) as { pairs: { a: string; b: string; ratio: number }[] };

/** mulberry32: a small seeded generator, so the pairs are the same on every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pairs of many shapes: reference texts, their pieces and edits, small alphabets, ≥ 200 chars. */
function pairs(): [string, string][] {
  const rand = seeded(42);
  const int = (n: number) => Math.floor(rand() * n);
  const texts = reference.pairs.flatMap((p) => [p.a.toLowerCase(), p.b.toLowerCase()]);
  const pick = () => texts[int(texts.length)]!;
  const piece = (s: string) => {
    const from = int(s.length);
    return s.slice(from, from + 1 + int(s.length - from));
  };
  const edit = (s: string) => {
    let out = '';
    for (const ch of s) {
      const r = rand();
      if (r < 0.05) continue;
      out += r < 0.1 ? 'xyz'[int(3)] : ch;
    }
    return out;
  };
  const randomText = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  const out: [string, string][] = reference.pairs.map((p) => [p.a.toLowerCase(), p.b.toLowerCase()]);
  for (let n = 0; n < 500; n++) {
    const a = pick();
    out.push([piece(a), a], [a, piece(a)], [edit(a), a], [piece(a), edit(piece(a))], [pick(), pick()]);
    const alphabet = ['ab', 'abc', 'abcde ', 'the quick brown fox'][int(4)]!;
    out.push([randomText(alphabet, 1 + int(60)), randomText(alphabet, 150 + int(300))]);
    out.push([randomText(alphabet, 150 + int(300)), randomText(alphabet, 1 + int(300))]);
  }
  out.push(['', ''], ['', 'a'], ['a', ''], ['ab', 'ac'], ['abcd', 'abxy'], ['a😀b', 'a😀c']);
  return out;
}

describe('sequenceRatioAtLeast = (sequenceRatio >= threshold), exactly', () => {
  const all = pairs();

  it('agrees on every pair at 0.5 (researchqa threshold), with and without autojunk', () => {
    expect(all.length).toBeGreaterThan(3_500);
    let disagree = 0;
    let above = 0;
    for (const [n, [a, b]] of all.entries()) {
      for (const autojunk of n < 1000 ? [true, false] : [true]) {
        const expected = sequenceRatio(a, b, { autojunk }) >= 0.5;
        if (sequenceRatioAtLeast(a, b, 0.5, { autojunk }) !== expected) disagree++;
        if (expected) above++;
      }
    }
    expect(disagree).toBe(0);
    // Both outcomes are well represented.
    expect(above).toBeGreaterThan(all.length / 5);
    expect(above).toBeLessThan((all.length * 4) / 5);
  });

  it('agrees exactly at the boundary: the ratio itself passes, the next double above does not', () => {
    let checked = 0;
    for (const [a, b] of all.slice(0, 2000)) {
      const r = sequenceRatio(a, b);
      expect(sequenceRatioAtLeast(a, b, r)).toBe(true);
      const above = r + Number.EPSILON * Math.max(1, r);
      if (above > r) {
        expect(sequenceRatioAtLeast(a, b, above)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1500);
  });

  it.each([
    ['ab', 'ac', 0.5, true], // ratio exactly 0.5
    ['abcd', 'abxy', 0.5, true], // 2·2/8 = 0.5
    ['abcd', 'axyz', 0.5, false], // 0.25
    ['', '', 1, true],
    ['', 'a', 0, true],
    ['', 'a', 0.5, false],
    ['abc', 'abc', 1, true],
    ['a😀b', 'a😀c', 2 / 3, true], // code points: 2·2/6
    ['a😀b', 'a😀c', 0.7, false],
  ])('sequenceRatioAtLeast(%j, %j, %d) = %s', (a, b, t, expected) => {
    expect(sequenceRatioAtLeast(a, b, t)).toBe(expected);
    expect(sequenceRatio(a, b) >= t).toBe(expected);
  });

  it('agrees on autojunk-length strings where popular characters decide the result', () => {
    const b = `${'e'.repeat(250)}xyz`;
    for (const a of [`xyz${'e'.repeat(10)}`, 'e'.repeat(200), `${'e'.repeat(120)}xyz`, 'xyz']) {
      for (const t of [0.05, 0.1, 0.5, 0.6]) {
        expect(sequenceRatioAtLeast(a, b, t)).toBe(sequenceRatio(a, b) >= t);
      }
    }
  });
});

describe("b's tables are reused while b stays the same", () => {
  const all = pairs();

  it('gives the results of freshly built tables, across functions and autojunk settings', () => {
    const bs = all.slice(0, 40).map(([, b]) => b);
    const as = all.slice(40, 140).map(([a]) => a);
    const fresh = (a: string, b: string, autojunk: boolean) => {
      sequenceRatio('x', 'y'); // loads another b, so the next call builds b's tables again
      return sequenceRatio(a, b, { autojunk });
    };
    let compared = 0;
    for (const b of bs) {
      // Same b over and over (tables kept), switching function and autojunk, with a copy of b that is
      // equal but not the same string object.
      const expected = as.map((a) => [fresh(a, b, true), fresh(a, b, false)] as const);
      const copy = `${b} `.slice(0, -1);
      for (const [n, a] of as.entries()) {
        const [junk, noJunk] = expected[n]!;
        expect(sequenceRatio(a, b)).toBe(junk);
        expect(sequenceRatioAtLeast(a, copy, 0.5)).toBe(junk >= 0.5);
        expect(sequenceRatio(a, b, { autojunk: false })).toBe(noJunk);
        expect(sequenceMatchingBlocks(a, b).reduce((m, block) => m + block.size, 0)).toBe(
          Math.round((junk * ([...a].length + [...b].length)) / 2),
        );
        compared++;
      }
    }
    expect(compared).toBe(4000);
  });
});

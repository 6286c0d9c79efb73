import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.js';

describe('TopK', () => {
  it.each([
    [3, [5, 1, 9, 7, 3], [2, 3, 0]],
    [10, [1, 2], [1, 0]],
    [0, [1, 2], []],
    [2, [1, 1, 1, 1], [0, 1]],
  ])('k=%i of %j keeps indexes %j (ties: lower index)', (k, scores, expected) => {
    const top = new TopK(k);
    for (const [i, s] of scores.entries()) top.push(i, s);
    expect(top.sorted().map((x) => x.index)).toEqual(expected);
  });

  it('agrees with a full sort on random input', () => {
    let seed = 1;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const scores = Array.from({ length: 2000 }, () => Math.round(rand() * 100));
    const top = new TopK(25);
    for (const [i, s] of scores.entries()) top.push(i, s);
    const expected = scores
      .map((s, i) => ({ index: i, score: s }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, 25);
    expect(top.sorted()).toEqual(expected);
  });
});

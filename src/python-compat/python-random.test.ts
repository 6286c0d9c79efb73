import { describe, expect, it } from 'vitest';
import { PythonRandom } from './python-random.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

// Expected values printed by CPython 3.11.7 (`random.seed(s); random.sample(range(n), k)` etc.).
describe('PythonRandom (CPython random, bit for bit)', () => {
  it('getrandbits(32) and random() after seed(1234)', () => {
    const r = new PythonRandom(1234);
    expect([r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)]).toEqual([
      4150886329, 3342196574, 1892932127,
    ]);
    expect(new PythonRandom(1234).random()).toBe(0.9664535356921388);
  });

  it.each([
    [1234, 40, 20, [28, 7, 0, 5, 2, 36, 6, 22, 15, 37, 30, 25, 29, 11, 20, 19, 31, 24, 14, 4]],
    [1234, 30, 20, [24, 14, 3, 0, 2, 18, 1, 21, 25, 27, 11, 7, 26, 17, 16, 5, 10, 9, 29, 12]],
    [42, 5, 5, [0, 4, 2, 1, 3]],
    // n > setsize: the set variant
    [0, 1000, 7, [864, 394, 776, 911, 430, 41, 265]],
    // a seed wider than 32 bits: init_by_array with two key words
    [2 ** 40 + 5, 100, 10, [64, 66, 34, 84, 3, 67, 97, 5, 21, 10]],
    // a negative seed: its absolute value
    [-7, 100, 3, [41, 19, 50]],
  ])('seed(%s); sample(range(%s), %s)', (seed, n, k, expected) => {
    expect(new PythonRandom(seed).sample(range(n), k)).toEqual(expected);
  });

  it('refuses a sample larger than the population, and a fractional seed', () => {
    expect(() => new PythonRandom(1).sample([1, 2], 3)).toThrow(/Cannot sample 3 items from 2/);
    expect(() => new PythonRandom(1.5)).toThrow(/whole number/);
  });
});

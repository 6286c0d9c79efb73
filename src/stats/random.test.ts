import { describe, expect, it } from 'vitest';
import { createRandom, randomInt } from './random.js';

describe('createRandom (mulberry32)', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const sa = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(sa);
    expect(Array.from({ length: 5 }, c)).not.toEqual(sa);
  });
  it('is mulberry32 exactly: the reference recurrence on unsigned 32-bit integers', () => {
    const reference = (seed: number) => {
      let state = seed >>> 0;
      return () => {
        state = (state + 0x6d2b79f5) % 2 ** 32;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    };
    for (const seed of [0, 1, 42, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1]) {
      const [ours, theirs] = [createRandom(seed), reference(seed)];
      for (let i = 0; i < 20_000; i++) expect(ours()).toBe(theirs());
    }
  });
  it('reduces seeds modulo 2^32', () => {
    expect(createRandom(2 ** 32 + 5)()).toBe(createRandom(5)());
    expect(createRandom(-1)()).toBe(createRandom(2 ** 32 - 1)());
  });
  it('is roughly uniform on [0, 1): chi-square over 10 bins below the 0.999 critical value', () => {
    const random = createRandom(7);
    const bins = new Array<number>(10).fill(0);
    const draws = 100_000;
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const u = random();
      if (!(u >= 0 && u < 1)) outside++;
      else bins[Math.floor(u * 10)]! += 1;
    }
    expect(outside).toBe(0);
    const expected = draws / 10;
    const chi2 = bins.reduce((s, o) => s + (o - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.88); // χ²(9) 0.999 quantile
  });
  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses the seed %d', (seed) => {
    expect(() => createRandom(seed)).toThrow(/seed must be an integer/);
  });
  it('randomInt stays in 0..n-1 and hits every value', () => {
    const random = createRandom(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(randomInt(random, 6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

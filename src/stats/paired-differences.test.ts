import { describe, expect, it } from 'vitest';
import { fewLevels } from './paired-differences.js';
import { createRandom } from './random.js';

/** The levels as a Map counts them (the way fewLevels counted until 2026-12-01). */
function mapLevels(samples: readonly number[]) {
  const limit = Math.floor(samples.length / 200);
  if (limit < 2) return null;
  const counts = new Map<number, number>();
  for (const x of samples) {
    counts.set(x, (counts.get(x) ?? 0) + 1);
    if (counts.size > limit) return null;
  }
  const values = Float64Array.from(counts.keys()).sort();
  return { values, counts: values.map((v) => counts.get(v)!) };
}

describe('fewLevels', () => {
  it.each([
    ['quarters with −0 and 0', 2000, (u: number) => (u < 0.1 ? -0 : Math.round((u - 0.5) * 8) / 4)],
    ['ratios k/m, m ≤ 6', 40_000, (u: number) => Math.round(u * 6) / 6 - Math.round(u * 5) / 5],
    ['exactly the limit', 2000, (u: number) => Math.floor(u * 10)],
    ['one over the limit', 2000, (u: number) => Math.floor(u * 11)],
    ['continuous', 5000, (u: number) => u],
    ['too few samples', 300, () => 1],
  ])('counts %s as a Map does', (_, n, f) => {
    const random = createRandom(n);
    const samples = Array.from({ length: n }, () => f(random()));
    const got = fewLevels(samples);
    const want = mapLevels(samples);
    expect(got).toStrictEqual(want);
    if (got) expect(Object.is(got.values[0], -0)).toBe(false);
  });
});

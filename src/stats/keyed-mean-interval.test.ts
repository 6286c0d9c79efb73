import { describe, expect, it } from 'vitest';
import { bootstrapCI } from './bootstrap.js';
import { canonicalOrder, keyedMeanInterval } from './keyed-mean-interval.js';

describe('keyedMeanInterval', () => {
  const keys = ['q10', 'q02', 'Q9', 'q1', 'é', 'q03'];
  const values = [0.5, 1, 0, 0.25, 0.75, 1];

  it('is the bootstrap of the values in key (code-unit) order, whatever order they come in', () => {
    const order = canonicalOrder(keys);
    expect(order.map((i) => keys[i])).toEqual(['Q9', 'q02', 'q03', 'q1', 'q10', 'é']);
    const expected = bootstrapCI(
      order.map((i) => values[i]!),
      undefined,
      { seed: 3, iterations: 2000 },
    );
    const reversed = keyedMeanInterval([...keys].reverse(), [...values].reverse(), { seed: 3 });
    expect(keyedMeanInterval(keys, values, { seed: 3 })).toEqual(expected);
    expect(reversed).toEqual(expected);
  });

  it('keeps the given order of equal keys (stable)', () => {
    expect(canonicalOrder(['b', 'a', 'b', 'a'])).toEqual([1, 3, 0, 2]);
  });
});

import { describe, expect, it } from 'vitest';
import { createLimit } from './limit.js';

describe('createLimit', () => {
  it.each([1, 2, 5])('never runs more than %i at once and keeps every result', async (n) => {
    const limit = createLimit(n);
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        limit(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 1));
          active--;
          return i;
        }),
      ),
    );
    expect(peak).toBeLessThanOrEqual(n);
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('releases its slot when a function rejects', async () => {
    const limit = createLimit(1);
    await expect(limit(() => Promise.reject(new Error('boom')))).rejects.toThrow(/boom/);
    await expect(limit(async () => 7)).resolves.toBe(7);
  });
});

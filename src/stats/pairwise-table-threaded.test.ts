import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildPairwiseTable } from './build-pairwise-table.js';
import type { ItemScore } from './pair-items.js';
import { type MetricScores, pairwiseTable } from './pairwise-table.js';
import { pairwiseTableThreaded } from './pairwise-table-threaded.js';
import { createRandom } from './random.js';

/**
 * Four systems × three metrics × `items` items, with failed and not-applicable items: one metric
 * of quarters (few distinct differences: the bootstrap and the randomization test go by counts),
 * one of ratios k/m, one continuous (every difference distinct: item by item).
 */
function table(items: number, seed: number): MetricScores[] {
  const random = createRandom(seed);
  const ids = Array.from({ length: items }, (_, i) => `row${String(i).padStart(5, '0')}`);
  const kinds = [
    (p: number) => Math.round(p * 4) / 4,
    (p: number) => Math.round(p * 3) / 3,
    (p: number) => p,
  ];
  return kinds.map((round, m) => ({
    metric: `m${m}`,
    higherIsBetter: m !== 1,
    systems: Array.from({ length: 4 }, (_, s) => {
      const scores = new Map<string, ItemScore>();
      for (const id of ids) {
        const u = random();
        if (u < 0.03) scores.set(id, 'failed');
        else if (u < 0.08) scores.set(id, 'not-applicable');
        else scores.set(id, round(Math.min(1, Math.max(0, 0.35 + 0.05 * s + 0.6 * (random() - 0.5)))));
      }
      return { label: `s${s}`, scores };
    }),
  }));
}

describe('pairwiseTableThreaded', () => {
  it('gives the table pairwiseTable gives, bit for bit, with comparisons computed on a worker', async () => {
    const metrics = table(1200, 5);
    for (const test of ['randomization', 'bootstrap'] as const) {
      const options = { test, iterations: 3000, seed: 11, correction: 'holm' as const };
      const serial = pairwiseTable(metrics, options);
      const threads = new Set<number>();
      const threaded = await pairwiseTableThreaded(metrics, {
        ...options,
        threads: 1,
        useThisThread: false,
        onComparison: (_, thread) => threads.add(thread),
      });
      // Object.is on every number (−0, NaN), every interval, p and adjusted p.
      expect(isDeepStrictEqual(threaded, serial)).toBe(true);
      expect(threaded).toStrictEqual(serial);
      expect(threaded.rows).toHaveLength(18);
      // Every comparison came back from the worker thread.
      expect(threads.size).toBe(1);
      expect(threads.has(0)).toBe(false);
    }
  });

  it('shares a large table between this thread and a worker, with the same result', async () => {
    const metrics = table(1200, 8);
    const threads = new Map<number, number>();
    const options = { iterations: 2000, seed: 3 };
    const threaded = await pairwiseTableThreaded(metrics, {
      ...options,
      threads: 2,
      minWork: 0,
      onComparison: (_, thread) => threads.set(thread, (threads.get(thread) ?? 0) + 1),
    });
    expect(threaded).toStrictEqual(pairwiseTable(metrics, options));
    expect([...threads.values()].reduce((x, y) => x + y, 0)).toBe(18);
  });

  it('keeps a small table on this thread', async () => {
    const metrics = table(300, 6);
    const threads = new Set<number>();
    const threaded = await pairwiseTableThreaded(metrics, {
      iterations: 500,
      threads: 2,
      onComparison: (_, thread) => threads.add(thread),
    });
    expect([...threads]).toEqual([0]);
    expect(threaded).toStrictEqual(pairwiseTable(metrics, { iterations: 500 }));
  });

  it('computes on this thread only with threads: 1, whatever the size', async () => {
    const metrics = table(400, 7);
    const threads = new Set<number>();
    const threaded = await pairwiseTableThreaded(metrics, {
      iterations: 400,
      threads: 1,
      minWork: 0,
      onComparison: (_, thread) => threads.add(thread),
    });
    expect([...threads]).toEqual([0]);
    expect(threaded).toStrictEqual(pairwiseTable(metrics, { iterations: 400 }));
  });
});

describe('buildPairwiseTable (the entry every command calls)', () => {
  it('shares a large table with a worker without giving up its thread, and gives pairwiseTable bit for bit', () => {
    const metrics = table(1200, 9);
    for (const test of ['randomization', 'bootstrap', 'wilcoxon'] as const) {
      const options = { test, iterations: 1500, seed: 4 };
      const threads = new Map<number, number>();
      const built = buildPairwiseTable(metrics, {
        ...options,
        threads: 2,
        minWork: 0,
        onComparison: (_, thread) => threads.set(thread, (threads.get(thread) ?? 0) + 1),
      });
      expect(isDeepStrictEqual(built, pairwiseTable(metrics, options))).toBe(true);
      expect([...threads.values()].reduce((x, y) => x + y, 0)).toBe(18);
    }
  });

  it('reads every comparison back from a worker while this thread waits', () => {
    const metrics = table(600, 3);
    const threads = new Set<number>();
    const options = { iterations: 800, seed: 2 };
    const built = buildPairwiseTable(metrics, {
      ...options,
      threads: 1,
      useThisThread: false,
      onComparison: (_, thread) => threads.add(thread),
    });
    expect(built).toStrictEqual(pairwiseTable(metrics, options));
    expect(threads.size).toBe(1);
    expect(threads.has(0)).toBe(false);
  });

  it('keeps a small table, or threads: 1, on this thread', () => {
    const metrics = table(300, 6);
    for (const options of [{ threads: 2 }, { threads: 1, minWork: 0 }]) {
      const threads = new Set<number>();
      const built = buildPairwiseTable(metrics, {
        iterations: 500,
        ...options,
        onComparison: (_, thread) => threads.add(thread),
      });
      expect([...threads]).toEqual([0]);
      expect(built).toStrictEqual(pairwiseTable(metrics, { iterations: 500 }));
    }
  });
});

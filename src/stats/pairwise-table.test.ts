import { describe, expect, it } from 'vitest';
import { adjustPValues } from './multiple-comparisons.js';
import { alignScores, type ItemScore, pairAligned, pairItems } from './pair-items.js';
import { comparePairedItems } from './paired-comparison.js';
import { pairedTTest } from './paired-t-test.js';
import { pairwiseTable } from './pairwise-table.js';
import { createRandom } from './random.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `q${String(i).padStart(3, '0')}`);
const system = (values: ItemScore[]) => new Map(ids(values.length).map((id, i) => [id, values[i]!]));

describe('comparePairedItems', () => {
  it('leaves out items failed or not applicable on either side and counts them', () => {
    const a = system([1, 'failed', 0.5, 'not-applicable', 1, 0]);
    const b = system([0, 1, 'not-applicable', 'failed', 0.5, 0]);
    const paired = pairItems(a, b);
    expect([paired.ids, paired.droppedFailed, paired.droppedNotApplicable]).toEqual([
      ['q000', 'q004', 'q005'],
      2,
      1,
    ]);
    const c = comparePairedItems(paired, { test: 't' });
    expect(c).toMatchObject({ n: 3, dropped: { failed: 2, notApplicable: 1 }, wins: 2, ties: 1, losses: 0 });
    expect(c.delta.estimate).toBeCloseTo(0.5, 15);
    expect(c.test.p).toBe(pairedTTest([1, 1, 0], [0, 0.5, 0]).p);
  });

  it('reports zero variance instead of dividing by zero', () => {
    const same = pairItems(system([0.5, 1, 0]), system([0.5, 1, 0]));
    for (const test of ['randomization', 'bootstrap', 't', 'wilcoxon', 'sign'] as const) {
      const c = comparePairedItems(same, { test });
      expect(c.zeroVariance).toBe(true);
      expect(c.dz).toBeNull();
      expect(c.mdd.value).toBe(0);
      expect(c.delta.percentile).toEqual([0, 0]);
      expect(c.delta.bca).toBeNull();
      // The tests that have a p for no difference say 1; the others say they are undefined.
      expect([1, null]).toContain(c.test.p);
    }
  });

  it('states the resamples and seed, and gives the same result for the same seed', () => {
    const random = createRandom(9);
    const a = system(Array.from({ length: 400 }, () => Math.round(random() * 4) / 4));
    const b = system(Array.from({ length: 400 }, () => Math.round(random() * 4) / 4));
    const one = comparePairedItems(pairItems(a, b), { seed: 4, iterations: 2000 });
    expect(one.delta).toMatchObject({ iterations: 2000, seed: 4 });
    expect(one.test.method).toBe('monte-carlo');
    expect(one.test.monteCarloError).toBeGreaterThan(0);
    expect(comparePairedItems(pairItems(a, b), { seed: 4, iterations: 2000 })).toEqual(one);
  });
});

describe('pairwiseTable', () => {
  // Three systems on 200 items: A is B plus 0.25 on a third of the items, C is B with noise.
  const random = createRandom(1);
  const base = Array.from({ length: 200 }, () => Math.round(random() * 4) / 4);
  const A = base.map((v, i) => (i % 3 === 0 ? Math.min(1, v + 0.25) : v));
  const C = base.map((v, i) =>
    i % 7 === 0 ? Math.max(0, v - 0.25) : i % 11 === 0 ? Math.min(1, v + 0.25) : v,
  );
  const metrics = [
    {
      metric: 'm1',
      higherIsBetter: true,
      systems: [
        { label: 'B', scores: system(base) },
        { label: 'A', scores: system(A) },
        { label: 'C', scores: system(C) },
      ],
    },
    {
      metric: 'm2',
      higherIsBetter: false,
      systems: [
        { label: 'B', scores: system(base) },
        { label: 'A', scores: system(A) },
      ],
    },
  ];

  it('compares every pair on every metric and adjusts p over the whole table', () => {
    const table = pairwiseTable(metrics, { test: 't', correction: 'holm' });
    expect(table.rows.map((r) => `${r.metric}:${r.a}-${r.b}`)).toEqual([
      'm1:B-A',
      'm1:B-C',
      'm1:A-C',
      'm2:B-A',
    ]);
    expect(table.comparisons).toBe(4);
    const raw = table.rows.map((r) => r.comparison.test.p);
    expect(table.rows.map((r) => r.adjustedP)).toEqual(adjustPValues(raw, 'holm'));
    expect(table.rows.map((r) => r.significant)).toEqual(table.rows.map((r) => r.adjustedP! < 0.05));
    expect(table.rows[0]!.comparison.delta.estimate).toBeLessThan(0);
  });

  it('groups the systems that cannot be told apart from the best, by the metric direction', () => {
    const table = pairwiseTable(metrics, { test: 't' });
    expect(table.groups[0]).toEqual({ metric: 'm1', best: 'A', indistinguishable: ['A'], notCompared: [] });
    // Lower is better on m2: B is best and A differs significantly.
    expect(table.groups[1]).toEqual({ metric: 'm2', best: 'B', indistinguishable: ['B'], notCompared: [] });
    // With no correction and alpha tiny nothing is significant: everyone is in the group.
    const lenient = pairwiseTable(metrics, { test: 't', correction: 'none', alpha: 1e-300 });
    expect(lenient.groups[0]!.indistinguishable).toEqual(['B', 'A', 'C']);
  });

  it('lists a system with no p-value against the best as not compared, never as indistinguishable', () => {
    // D scored only items the others lack (no shared item with the best); E scored none at all.
    const other = new Map<string, ItemScore>(ids(20).map((id) => [`z${id}`, 1]));
    const none = new Map<string, ItemScore>(ids(200).map((id) => [id, 'failed']));
    const table = pairwiseTable(
      [
        {
          ...metrics[0]!,
          systems: [...metrics[0]!.systems, { label: 'D', scores: other }, { label: 'E', scores: none }],
        },
      ],
      { test: 't', correction: 'none', alpha: 1e-300 },
    );
    const group = table.groups[0]!;
    // D's mean (1) is the highest, but it shares no item with anyone: the best by mean is D.
    expect(group.best).toBe('D');
    expect(group.indistinguishable).toEqual(['D']);
    expect(group.notCompared).toEqual(['B', 'A', 'C', 'E']);
    // Without D, A is the best; E (no scores) and nobody else lacks a p-value against it.
    const withoutD = pairwiseTable(
      [{ ...metrics[0]!, systems: [...metrics[0]!.systems, { label: 'E', scores: none }] }],
      { test: 't', correction: 'none', alpha: 1e-300 },
    );
    expect(withoutD.groups[0]).toEqual({
      metric: 'm1',
      best: 'A',
      indistinguishable: ['B', 'A', 'C'],
      notCompared: ['E'],
    });
  });
});

describe('alignScores / pairAligned', () => {
  it('pairs as pairItems does', () => {
    const a = new Map<string, ItemScore>([
      ['b', 1],
      ['a', 'failed'],
      ['c', 0.5],
      ['x', 1],
      ['n', 'not-applicable'],
    ]);
    const b = new Map<string, ItemScore>([
      ['c', 0],
      ['a', 1],
      ['b', 0.25],
      ['y', 0],
      ['n', 1],
    ]);
    const { ids, columns } = alignScores([a, b]);
    expect(pairAligned(ids, columns[0]!, columns[1]!)).toEqual(pairItems(a, b));
  });
});

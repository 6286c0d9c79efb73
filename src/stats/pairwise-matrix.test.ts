import { describe, expect, it } from 'vitest';
import type { ItemScore } from './pair-items.js';
import { pairwiseMatrices } from './pairwise-matrix.js';
import { pairwiseTable } from './pairwise-table.js';

const scores = (xs: (number | 'failed')[]) => new Map<string, ItemScore>(xs.map((x, i) => [`q${i}`, x]));

describe('pairwiseMatrices', () => {
  it('puts each row of the table in its cell and its mirror below the diagonal', () => {
    const table = pairwiseTable(
      [
        {
          metric: 'm',
          higherIsBetter: true,
          systems: [
            { label: 'A', scores: scores([1, 1, 0.5, 1, 0.75, 1, 'failed', 1]) },
            { label: 'B', scores: scores([0, 0.5, 0.5, 0.25, 0, 0.5, 1, 0]) },
            { label: 'C', scores: scores([0.5, 1, 0.5, 0.75, 0.5, 1, 1, 0.5]) },
          ],
        },
      ],
      { test: 't', seed: 3, iterations: 500 },
    );
    const [m] = pairwiseMatrices(table);
    expect(m?.systems).toEqual(['A', 'B', 'C']);
    expect(m?.best).toBe('A');
    expect(m?.cells[0]?.[0]).toBeNull();
    const ab = table.rows.find((r) => r.a === 'A' && r.b === 'B')!;
    const cell = m!.cells[0]![1]!;
    const mirror = m!.cells[1]![0]!;
    expect(cell.delta).toBe(ab.comparison.delta.estimate);
    expect(mirror.delta).toBe(-ab.comparison.delta.estimate!);
    const ci = ab.comparison.delta.bca ?? ab.comparison.delta.percentile!;
    expect(mirror.ci).toEqual([-ci[1], -ci[0]]);
    expect([cell.p, cell.adjustedP, cell.significant]).toEqual([
      ab.comparison.test.p,
      ab.adjustedP,
      ab.significant,
    ]);
    expect(cell).toMatchObject({ n: 7, leftOut: { failed: 1, notApplicable: 0, unshared: 0 } });
  });
});

import { buildPairwiseTable, type ItemScore, type PairwiseTable } from '../../stats/index.js';
import type { GridCell } from './grid-summary.js';
import { type QaMetricId, qaValues } from './score-answers.js';

/** Per metric: the grid's best cell and the cells not significantly worse than it. */
export interface GridBest {
  metric: QaMetricId;
  /** `model · retriever` of the best mean F; null when no cell scored the metric. */
  best: string | null;
  /** The best and every cell whose difference from it is not significant (Holm over the grid). */
  notWorse: string[];
  /** Cells with no p-value against the best (no question both scored): neither ≈ nor worse. */
  notCompared: string[];
}

/** The label of a grid cell in the pairwise table. */
export const cellLabel = (c: { model: string; mode: string }) => `${c.model} · ${c.mode}`;

/**
 * Every pair of grid cells on every metric (mean F on the questions both scored; a failed or
 * unscored answer is left out of the pair), paired randomization test, Holm over the whole grid,
 * and per metric the best cell with those not significantly worse (`buildPairwiseTable`).
 */
export function gridBest(
  cells: readonly GridCell[],
  metrics: readonly QaMetricId[],
  options: { seed?: number; iterations?: number } = {},
): { table: PairwiseTable; best: GridBest[] } {
  const table = buildPairwiseTable(
    metrics.map((metric) => ({
      metric,
      higherIsBetter: true,
      systems: cells.map((c) => ({
        label: cellLabel(c),
        scores: new Map<string, ItemScore>(
          c.rows.map((r) => {
            const v = qaValues(r, metric);
            return [r.row_id, v ? v[2] : r.status[metric] === 'failed' ? 'failed' : 'not-applicable'];
          }),
        ),
      })),
    })),
    { test: 'randomization', correction: 'holm', ...options },
  );
  const best = table.groups.map((g) => ({
    metric: g.metric as QaMetricId,
    best: g.best,
    notWorse: g.indistinguishable,
    notCompared: g.notCompared,
  }));
  return { table, best };
}

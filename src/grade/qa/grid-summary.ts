import { keyedMeanInterval, pairedRandomizationTest } from '../../stats/index.js';
import { type QaMetricId, type QaScoreRow, qaValues } from './score-answers.js';

/** The scored answers of one (retriever, generator) pair of the downstream grid. */
export interface GridCell {
  mode: string;
  model: string;
  rows: readonly QaScoreRow[];
}

export interface GridMetricStat {
  metric: QaMetricId;
  /** Rows scored (others: no reference, or a failed answer). */
  n: number;
  mean: number | null;
  lower: number | null;
  upper: number | null;
  /** Against the baseline retriever with the same model, on the rows scored in both: mean difference. */
  delta: number | null;
  /** Two-sided paired randomization test p (null for the baseline itself or no paired rows). */
  p: number | null;
  paired: number;
}

export interface GridRow {
  mode: string;
  model: string;
  baseline: boolean;
  stats: GridMetricStat[];
}

export interface GridOptions {
  baselineMode: string;
  seed?: number;
  iterations?: number;
}

/**
 * RECIPER's downstream table: per generator and retriever, the mean F of each metric with a
 * percentile bootstrap 95% CI, and its difference from the paragraph-only baseline retriever with
 * the same generator, tested with a paired sign-flip randomization test on the questions both
 * scored (src/stats). Failed and not-applicable rows are left out, never counted as 0.
 */
export function summarizeGrid(
  cells: readonly GridCell[],
  metrics: readonly QaMetricId[],
  options: GridOptions,
): GridRow[] {
  const seed = options.seed ?? 0;
  const iterations = options.iterations ?? 10_000;
  return cells.map((cell) => {
    const base = cells.find((c) => c.model === cell.model && c.mode === options.baselineMode);
    const isBaseline = cell.mode === options.baselineMode;
    return {
      mode: cell.mode,
      model: cell.model,
      baseline: isBaseline,
      stats: metrics.map((metric) => {
        const f = new Map<string, number>();
        for (const r of cell.rows) {
          const v = qaValues(r, metric);
          if (v) f.set(r.row_id, v[2]);
        }
        const ci = keyedMeanInterval([...f.keys()], [...f.values()], { seed, iterations });
        let delta: number | null = null;
        let p: number | null = null;
        let paired = 0;
        if (base && !isBaseline) {
          const a: number[] = [];
          const b: number[] = [];
          for (const r of base.rows) {
            const v = qaValues(r, metric);
            const mine = f.get(r.row_id);
            if (v && mine !== undefined) {
              a.push(mine);
              b.push(v[2]);
            }
          }
          paired = a.length;
          const test = pairedRandomizationTest(a, b, { seed, iterations });
          delta = test.observed;
          p = test.p;
        }
        return { metric, n: f.size, mean: ci.estimate, lower: ci.lower, upper: ci.upper, delta, p, paired };
      }),
    };
  });
}

import type { PairwiseRow, PairwiseTable } from './pairwise-table.js';

/** One cell of a pairwise matrix: the row system minus the column system. */
export interface MatrixCell {
  /** mean(row − col) over the items both scored. */
  delta: number | null;
  /** Its interval (BCa where defined, else percentile), oriented row − col. */
  ci: [number, number] | null;
  p: number | null;
  /** How p was computed (e.g. exact, Monte Carlo), when the test says. */
  method: string | null;
  adjustedP: number | null;
  significant: boolean;
  /** Pairs compared, and items left out of them (failed, not applicable, unshared). */
  n: number;
  leftOut: { failed: number; notApplicable: number; unshared: number };
  /** The minimum detectable difference of the pair (null where the spread gives none). */
  mdd: number | null;
}

/** One metric's matrix: systems in table order, cells[i][j] = systems[i] − systems[j] (null on the diagonal). */
export interface PairwiseMatrix {
  metric: string;
  systems: string[];
  best: string | null;
  /** The table's best group (`BestGroup`): those not told apart from the best, and those not compared with it. */
  indistinguishable: string[];
  notCompared: string[];
  cells: (MatrixCell | null)[][];
}

/**
 * The pairwise table as one square matrix per metric, for a view that colours cells by Δ and marks
 * significance (the HTML report): every number comes from the table's rows (`pairwiseTable`), a
 * cell below the diagonal is its mirror (Δ and interval negated, the same p).
 */
export function pairwiseMatrices(table: PairwiseTable): PairwiseMatrix[] {
  return table.groups.map((group) => {
    const rows = table.rows.filter((r) => r.metric === group.metric);
    const systems = [...new Set(rows.flatMap((r) => [r.a, r.b]))];
    const index = new Map(systems.map((s, i) => [s, i]));
    const cells: (MatrixCell | null)[][] = systems.map(() => systems.map(() => null));
    for (const r of rows) {
      cells[index.get(r.a)!]![index.get(r.b)!] = cellOf(r, 1);
      cells[index.get(r.b)!]![index.get(r.a)!] = cellOf(r, -1);
    }
    const { best, indistinguishable, notCompared } = group;
    return { metric: group.metric, systems, best, indistinguishable, notCompared, cells };
  });
}

function cellOf(r: PairwiseRow, sign: 1 | -1): MatrixCell {
  const c = r.comparison;
  const ci = c.delta.bca ?? c.delta.percentile;
  return {
    delta: c.delta.estimate === null ? null : sign * c.delta.estimate,
    ci: ci === null ? null : sign === 1 ? [ci[0], ci[1]] : [-ci[1], -ci[0]],
    p: c.test.p,
    method: c.test.method ?? null,
    adjustedP: r.adjustedP,
    significant: r.significant,
    n: c.n,
    leftOut: {
      failed: c.dropped.failed,
      notApplicable: c.dropped.notApplicable,
      unshared: c.onlyA + c.onlyB,
    },
    mdd: c.mdd.value,
  };
}

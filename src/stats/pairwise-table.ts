import { compareAligned } from './aligned-comparison.js';
import { adjustPValues, type Correction } from './multiple-comparisons.js';
import { alignScores, type ItemScore } from './pair-items.js';
import type { PairedComparison, PairedComparisonOptions, PairedTestName } from './paired-comparison.js';

/** One system's item scores on one metric. */
export interface SystemScores {
  label: string;
  scores: ReadonlyMap<string, ItemScore>;
}

/** The systems of one metric of a table. */
export interface MetricScores {
  metric: string;
  higherIsBetter: boolean;
  systems: readonly SystemScores[];
}

export interface PairwiseTableOptions extends PairedComparisonOptions {
  /** Across every pair and metric of the table; default 'holm'. */
  correction?: Correction;
}

/** One pair of systems on one metric: A − B, the test, and its adjusted p. */
export interface PairwiseRow {
  metric: string;
  a: string;
  b: string;
  comparison: PairedComparison;
  /** p adjusted for the table's comparisons (null when the test had no p). */
  adjustedP: number | null;
  /** adjustedP < alpha. */
  significant: boolean;
}

/** Per metric: the best system by mean and those not significantly different from it. */
export interface BestGroup {
  metric: string;
  best: string | null;
  /** The best and every system compared with it whose difference is not significant (adjusted). */
  indistinguishable: string[];
  /**
   * Systems with no p-value against the best (no item both scored, or the test undefined on
   * them): neither in the group nor shown worse, and said so.
   */
  notCompared: string[];
}

export interface PairwiseTable {
  test: PairedTestName;
  correction: Correction;
  alpha: number;
  confidence: number;
  iterations: number;
  seed: number;
  /** Comparisons the correction counted (those with a p-value). */
  comparisons: number;
  rows: PairwiseRow[];
  groups: BestGroup[];
}

/**
 * Every pair of systems on every metric, each a paired comparison on the items both scored
 * (`comparePairedItems`), with p-values adjusted over the whole table (every pair and metric, Holm
 * by default), and per metric the group of systems that cannot be told apart from the best.
 */
export function pairwiseTable(
  metrics: readonly MetricScores[],
  options: PairwiseTableOptions = {},
): PairwiseTable {
  const { test = 'randomization' } = options;
  const comparisons: PairedComparison[] = [];
  for (const m of metrics) {
    const { columns } = alignScores(m.systems.map((s) => s.scores));
    for (const [i, j] of systemPairs(m.systems.length)) {
      comparisons.push(compareAligned(columns[i]!, columns[j]!, { ...options, test }));
    }
  }
  return tableOfComparisons(metrics, comparisons, options);
}

/** The pairs (i, j), i < j, of k systems in table order: every comparison of one metric. */
export function systemPairs(k: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
  return pairs;
}

/**
 * The table from its comparisons, given in table order (metric by metric, `systemPairs` within
 * one): the correction over all of them and the best groups. Shared by `pairwiseTable` and
 * `pairwiseTableThreaded`, so both give the same table from the same comparisons.
 */
export function tableOfComparisons(
  metrics: readonly MetricScores[],
  comparisons: readonly PairedComparison[],
  options: PairwiseTableOptions = {},
): PairwiseTable {
  const { test = 'randomization', correction = 'holm', alpha = 0.05, confidence = 0.95 } = options;
  const { iterations = 10_000, seed = 0 } = options;
  const rows: Omit<PairwiseRow, 'adjustedP' | 'significant'>[] = [];
  let k = 0;
  for (const m of metrics) {
    for (const [i, j] of systemPairs(m.systems.length)) {
      const comparison = comparisons[k++]!;
      rows.push({ metric: m.metric, a: m.systems[i]!.label, b: m.systems[j]!.label, comparison });
    }
  }
  const adjusted = adjustPValues(
    rows.map((r) => r.comparison.test.p),
    correction,
  );
  const full = rows.map((r, k) => ({
    ...r,
    adjustedP: adjusted[k]!,
    significant: adjusted[k] !== null && adjusted[k]! < alpha,
  }));
  return {
    test,
    correction,
    alpha,
    confidence,
    iterations,
    seed,
    comparisons: adjusted.filter((p) => p !== null).length,
    rows: full,
    groups: metrics.map((m) => bestGroup(m, full)),
  };
}

/**
 * The best system of a metric by mean, the systems its comparison cannot tell apart from it, and
 * those without a p-value against it: a pair with no test is not evidence of a tie.
 */
function bestGroup(m: MetricScores, rows: readonly PairwiseRow[]): BestGroup {
  const means = m.systems
    .map((s) => ({ label: s.label, mean: scoredMean(s.scores) }))
    .filter((s): s is { label: string; mean: number } => s.mean !== null);
  if (means.length === 0) return { metric: m.metric, best: null, indistinguishable: [], notCompared: [] };
  const best = means.reduce((x, y) => ((m.higherIsBetter ? y.mean > x.mean : y.mean < x.mean) ? y : x)).label;
  const indistinguishable: string[] = [];
  const notCompared: string[] = [];
  for (const { label } of m.systems) {
    if (label === best) {
      indistinguishable.push(label);
      continue;
    }
    const row = rows.find(
      (r) => r.metric === m.metric && ((r.a === best && r.b === label) || (r.b === best && r.a === label)),
    );
    if (!row || row.adjustedP === null) notCompared.push(label);
    else if (!row.significant) indistinguishable.push(label);
  }
  return { metric: m.metric, best, indistinguishable, notCompared };
}

/** The plain mean of a system's numeric scores in the map's order (null with none). */
function scoredMean(scores: ReadonlyMap<string, ItemScore>): number | null {
  let sum = 0;
  let count = 0;
  for (const v of scores.values()) {
    if (typeof v !== 'number') continue;
    sum += v;
    count++;
  }
  return count ? sum / count : null;
}

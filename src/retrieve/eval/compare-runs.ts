import { CitegeistError } from '../../core/index.js';
import type { Qrels, Run } from '../../formats/index.js';
import { comparePairedItems, pairedTTest } from '../../stats/index.js';
import { renderTable } from '../../text/index.js';
import { perQueryValues, type TrecEvalOptions, trecEval } from './trec-eval.js';

export interface MeasureComparison {
  /** Printed measure name, e.g. `ndcg_cut_10`. */
  measure: string;
  /** Number of paired topics (every qrels topic; a topic missing from a run scores 0). */
  n: number;
  meanA: number;
  meanB: number;
  /** mean(B − A) over the paired topics (the comparison's estimate; 0 with none). */
  diff: number;
  /** Topics where B is better / equal / worse than A. */
  wins: number;
  ties: number;
  losses: number;
  /** Paired t-test on B − A (positive t: B better); null fields when undefined (n < 2, no variance). */
  tTest: { t: number | null; df: number | null; p: number | null };
  /**
   * Paired sign-flip randomization test on B − A (exact when 2^n ≤ iterations), p as SciPy's
   * `permutation_test` computes it (`comparePairedItems`, the module every comparison uses).
   */
  randomization: { p: number | null; iterations: number; seed: number; exact: boolean };
  /** B − A with its paired bootstrap intervals (percentile and BCa) and Cohen's d_z. */
  delta: { percentile: [number, number] | null; bca: [number, number] | null; dz: number | null };
}

export interface CompareOptions extends Omit<TrecEvalOptions, 'complete'> {
  iterations?: number;
  seed?: number;
}

/**
 * Compares run B against run A per measure over all qrels topics (trec_eval `-c` semantics, so
 * both runs are paired on the same topics): mean difference, win/tie/loss counts, a paired t-test
 * and a paired randomization test.
 */
export function compareRuns(
  qrels: Qrels,
  runA: Run,
  runB: Run,
  options: CompareOptions,
): MeasureComparison[] {
  const evalOptions = { ...options, complete: true };
  const a = trecEval(qrels, runA, evalOptions);
  const b = trecEval(qrels, runB, evalOptions);
  const iterations = options.iterations ?? 10_000;
  const seed = options.seed ?? 42;
  const names = (a.queries[0]?.values ?? [])
    .filter((v) => !v.integer && v.text === undefined)
    .map((v) => v.name);
  if (names.length === 0) {
    throw new CitegeistError(
      'UNKNOWN_MEASURE',
      'None of the requested measures has per-topic values to compare.',
      'Pick measures such as map, ndcg_cut.10, P.10 or recip_rank.',
    );
  }
  return names.map((measure) => {
    const va = perQueryValues(a, measure);
    const vb = perQueryValues(b, measure);
    // Topics in qrels order as trec_eval prints them; a topic a run lacks scores 0 (-c).
    const xs = [...va.values()];
    const ys = [...va.keys()].map((qid) => vb.get(qid) ?? 0);
    return compareMeasure(measure, [...va.keys()], xs, ys, { iterations, seed });
  });
}

/**
 * One measure of B against A on paired topics (`xs` A's values, `ys` B's, in `ids` order): the
 * means, B − A with its bootstrap intervals, win/tie/loss, the paired t-test and the randomization
 * test of `comparePairedItems` (the module every comparison uses). `compare` on TREC runs and
 * `reports compare` both call it.
 */
export function compareMeasure(
  measure: string,
  ids: string[],
  xs: number[],
  ys: number[],
  resampling: { iterations: number; seed: number },
): MeasureComparison {
  const paired = { ids, a: ys, b: xs, droppedFailed: 0, droppedNotApplicable: 0, onlyA: 0, onlyB: 0 };
  const c = comparePairedItems(paired, { test: 'randomization', ...resampling });
  const { t, df, p } = pairedTTest(ys, xs);
  const exact = c.test.method === 'exact';
  // The means and B − A are the comparison's own (paired a = B, b = A), not recomputed here.
  return {
    measure,
    n: c.n,
    meanA: c.meanB ?? 0,
    meanB: c.meanA ?? 0,
    diff: c.delta.estimate ?? 0,
    wins: c.wins,
    ties: c.ties,
    losses: c.losses,
    tTest: { t, df, p },
    randomization: {
      p: c.test.p,
      iterations: exact ? 2 ** c.n : resampling.iterations,
      seed: resampling.seed,
      exact,
    },
    delta: { percentile: c.delta.percentile, bca: c.delta.bca, dz: c.dz },
  };
}

/** A plain-text table of comparisons (one row per measure). */
export function formatComparison(rows: MeasureComparison[], nameA: string, nameB: string): string {
  const header = ['measure', 'n', `A=${nameA}`, `B=${nameB}`, 'B-A', 'win/tie/loss', 't', 'p(t)', 'p(rand)'];
  const body = rows.map((r) => [
    r.measure,
    String(r.n),
    r.meanA.toFixed(4),
    r.meanB.toFixed(4),
    (r.diff >= 0 ? '+' : '') + r.diff.toFixed(4),
    `${r.wins}/${r.ties}/${r.losses}`,
    r.tTest.t === null ? 'n/a' : Number.isFinite(r.tTest.t) ? r.tTest.t.toFixed(3) : String(r.tTest.t),
    formatP(r.tTest.p),
    formatP(r.randomization.p),
  ]);
  return `${renderTable(
    header.map((h) => ({ header: h })),
    body,
    { rule: false },
  )}\n`;
}

function formatP(p: number | null): string {
  if (p === null) return 'n/a';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

import type { BestGroup, PairwiseRow, PairwiseTable } from '../stats/index.js';
import { renderTable } from '../text/index.js';

/** How each test is named in a table's header line. */
export const TEST_NAMES: Record<PairwiseTable['test'], string> = {
  randomization: 'paired randomization test',
  bootstrap: 'paired bootstrap test',
  t: 'paired t-test',
  wilcoxon: 'Wilcoxon signed-rank test',
  sign: 'sign test (exact binomial)',
};
/** How each correction is named in a table's header line. */
export const CORRECTION_NAMES: Record<PairwiseTable['correction'], string> = {
  holm: 'Holm-adjusted',
  bonferroni: 'Bonferroni-adjusted',
  bh: 'Benjamini–Hochberg-adjusted',
  none: 'not adjusted',
};

/** A difference with its sign, to `digits` decimals ('–' for none). */
export const signed = (x: number | null, digits = 3) =>
  x === null ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
/** A p-value to 4 decimals, '<0.0001' below that ('–' for none). */
export const pFmt = (p: number | null) => (p === null ? '–' : p < 0.0001 ? '<0.0001' : p.toFixed(4));

/** The interval a row shows: BCa where defined, else (no spread, too few pairs) percentile. */
export function interval(r: PairwiseRow): string {
  const ci = r.comparison.delta.bca ?? r.comparison.delta.percentile;
  return ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '–';
}

/** Items of the pair left out: failed, not applicable, or scored by one side only. */
export function leftOut(r: PairwiseRow): string {
  const c = r.comparison;
  return leftOutText({
    failed: c.dropped.failed,
    notApplicable: c.dropped.notApplicable,
    unshared: c.onlyA + c.onlyB,
  });
}

/** Items left out of a pair, as the tables say them ("2 failed, 1 n/a", or "0"). */
export function leftOutText(l: { failed: number; notApplicable: number; unshared: number }): string {
  const parts = [
    l.failed ? `${l.failed} failed` : '',
    l.notApplicable ? `${l.notApplicable} n/a` : '',
    l.unshared ? `${l.unshared} unshared` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : '0';
}

/**
 * The pairwise table as text, one block per metric: A − B with its interval, p, adjusted p and a
 * mark when significant, how many pairs and how many items were left out; then the minimum
 * detectable difference and the group not distinguishable from the best.
 */
export function renderPairwiseTable(
  table: PairwiseTable,
  label: (metric: string) => string = (m) => m,
): string {
  const resampling = `${table.iterations.toLocaleString('en-US')} resamples, seed ${table.seed}`;
  const lines = [
    `pairwise comparisons: ${TEST_NAMES[table.test]} (${resampling}); p ${CORRECTION_NAMES[table.correction]} over ${table.comparisons} comparisons; * = adjusted p < ${table.alpha}; Δ = A − B with its ${Math.round(table.confidence * 100)}% bootstrap CI (BCa)`,
  ];
  for (const group of table.groups) {
    const rows = table.rows.filter((r) => r.metric === group.metric);
    if (rows.length === 0) continue;
    lines.push('', label(group.metric));
    const body = rows.map((r) => [
      `${r.a} vs ${r.b}`,
      signed(r.comparison.delta.estimate),
      interval(r),
      pFmt(r.comparison.test.p),
      `${pFmt(r.adjustedP)}${r.significant ? ' *' : ''}`,
      String(r.comparison.n),
      leftOut(r),
      r.comparison.mdd.value === null
        ? '–'
        : `${r.comparison.mdd.value.toFixed(3)}${r.comparison.zeroVariance ? ' (no spread)' : ''}`,
    ]);
    lines.push(
      renderTable(
        ['A vs B', 'Δ', 'CI', 'p', 'adj. p', 'pairs', 'left out', 'MDD'].map((header) => ({ header })),
        body,
        { rule: false },
      ).replace(/^/gm, '  '),
    );
    if (group.best) {
      lines.push(`  best: ${group.best}; ${bestGroupText(group)}`);
    }
  }
  // The α and power the MDDs were computed at (`--alpha` sets α; every row shares them).
  const mdd = table.rows[0]?.comparison.mdd ?? { alpha: table.alpha, power: 0.8 };
  lines.push(
    '',
    `MDD: the smallest true difference this many pairs would detect (α = ${mdd.alpha}, power ${mdd.power}, from the spread of the differences); smaller ones cannot be told apart.`,
  );
  return `${lines.join('\n')}\n`;
}

/** How the other systems stand against the best: not distinguishable, not compared (no p-value), or all worse. */
function bestGroupText(group: BestGroup): string {
  const others = group.indistinguishable.filter((l) => l !== group.best);
  const none = group.notCompared.length ? `not compared (no p-value): ${group.notCompared.join(', ')}` : '';
  if (others.length)
    return [`not distinguishable from it: ${others.join(', ')}`, none].filter(Boolean).join('; ');
  return none
    ? `every compared system is significantly worse; ${none}`
    : 'every other system is significantly worse';
}

import { cellLabel, type GridBest, type GridRow, type QaMetricId } from '../grade/index.js';
import { formatScore, renderTable } from '../text/index.js';

const signed = (x: number | null) => (x === null ? '' : `${x >= 0 ? '+' : ''}${x.toFixed(4)}`);
const pValue = (p: number | null) => (p === null ? '' : p < 0.001 ? '<0.001' : p.toFixed(3));

/** The table RECIPER reports: per model and retriever, each metric's mean [95% CI], Δ and p vs the baseline. */
export function renderGrid(
  grid: readonly GridRow[],
  metrics: readonly QaMetricId[],
  best: readonly GridBest[] = [],
): string {
  // ▲ the best cell of a metric, ≈ a cell not significantly worse than it (Holm over the grid),
  // ? a cell not compared with it (no p-value): no mark would read as significantly worse.
  const mark = (g: GridRow, m: QaMetricId | undefined) => {
    const b = best.find((x) => x.metric === m);
    if (!b?.best) return '';
    const label = cellLabel(g);
    if (label === b.best) return ' ▲';
    return b.notWorse.includes(label) ? ' ≈' : b.notCompared.includes(label) ? ' ?' : '';
  };
  const label = (m: QaMetricId) => (m === 'bertscore' ? 'BERTScore-F1' : m === 'rougeL' ? 'ROUGE-L' : m);
  const columns = [
    { header: 'model' },
    { header: 'retriever' },
    { header: 'n', align: 'right' as const },
    ...metrics.flatMap((m) => [
      { header: `${label(m)} [95% CI]` },
      { header: 'Δ', align: 'right' as const },
      { header: 'p', align: 'right' as const },
    ]),
  ];
  const rows = grid.map((g) => [
    g.model,
    g.baseline ? `${g.mode} (baseline)` : g.mode,
    String(g.stats[0]?.n ?? 0),
    ...g.stats.flatMap((s) => [
      `${formatScore(s.mean, 4)} [${formatScore(s.lower, 4)}, ${formatScore(s.upper, 4)}]${mark(g, s.metric)}`,
      signed(s.delta),
      pValue(s.p),
    ]),
  ]);
  const legend = best.some((b) => b.best)
    ? `\n▲ best cell of the metric; ≈ not significantly worse (paired randomization test, Holm over every pair of cells and metric)${best.some((b) => b.notCompared.length) ? '; ? not compared with the best (no question both scored)' : ''}`
    : '';
  return `${renderTable(columns, rows)}${legend}`;
}

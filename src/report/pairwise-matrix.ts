import {
  type MatrixCell,
  type PairwiseMatrix,
  type PairwiseTable,
  pairwiseMatrices,
} from '../stats/index.js';
import { escapeHtml as e } from './escape-html.js';
import { CORRECTION_NAMES, leftOutText, pFmt, signed, TEST_NAMES } from './pairwise-text.js';
import type { MetricInfo, RunInfo } from './report-data.js';
import { swatch } from './svg-charts.js';

/**
 * The colour class of a difference: its size as a share of the metric's range, towards better
 * (`dp1`…`dp3`) or worse (`dn1`…`dn3`) for the row's run, `d0` below 2% of the range. Classes, not
 * style attributes: the page's Content-Security-Policy allows no inline style.
 */
export function deltaClass(
  delta: number | null,
  metric: Pick<MetricInfo, 'range' | 'higherIsBetter'>,
): string {
  if (delta === null) return 'dna';
  const share = (metric.higherIsBetter ? delta : -delta) / (metric.range[1] - metric.range[0]);
  const size = Math.abs(share);
  if (size < 0.02) return 'd0';
  const step = size < 0.1 ? 1 : size < 0.25 ? 2 : 3;
  return `${share > 0 ? 'dp' : 'dn'}${step}`;
}

/** One cell: the row's run minus the column's (`pairwiseMatrices`). */
function cell(c: MatrixCell | null, m: MetricInfo, i: number, j: number, runs: readonly RunInfo[]): string {
  if (!c) return '<td class="num dna">–</td>';
  const interval = c.ci ? `[${signed(c.ci[0])}, ${signed(c.ci[1])}]` : '–';
  const [a, b] = [runs[i]!.label, runs[j]!.label];
  const mdd = c.mdd === null ? '–' : c.mdd.toFixed(3);
  const hover = [
    `${a} − ${b}, ${m.label}: Δ = ${signed(c.delta)} ${interval}`,
    `p = ${pFmt(c.p)}${c.method ? ` (${c.method})` : ''}, adjusted p = ${pFmt(c.adjustedP)}${c.significant ? ' (significant)' : ''}`,
    `${c.n} pairs; left out: ${leftOutText(c.leftOut)}; MDD ${mdd}`,
  ].join('\n');
  const mark = c.significant ? '<span class="sig-mark">*</span>' : '';
  const href = `#rows&amp;runs=${Math.min(i, j)}.${Math.max(i, j)}&amp;metric=${encodeURIComponent(m.id)}&amp;differ=${Math.min(i, j)}.${Math.max(i, j)}`;
  return `<td class="num ${deltaClass(c.delta, m)}${c.significant ? ' sig' : ''}" title="${e(hover)}"><a class="pw-link" href="${href}">${signed(c.delta)}${mark}</a></td>`;
}

/** The matrix of one metric: row run − column run, the diagonal empty. */
function metricMatrix(
  table: PairwiseTable,
  matrix: PairwiseMatrix | undefined,
  m: MetricInfo,
  runs: readonly RunInfo[],
): string {
  const rows = table.rows.filter((r) => r.metric === m.id);
  if (!matrix || rows.length === 0) return '';
  // The matrix lists systems in table order; the page shows runs in its own order.
  const at = new Map(matrix.systems.map((s, k) => [s, k]));
  const cellAt = (a: string, b: string) => {
    const [x, y] = [at.get(a), at.get(b)];
    return x === undefined || y === undefined ? null : (matrix.cells[x]![y] ?? null);
  };
  const body = runs
    .map((ri, i) => {
      const cells = runs
        .map((rj, j) =>
          i === j ? '<td class="diag"></td>' : cell(cellAt(ri.label, rj.label), m, i, j, runs),
        )
        .join('');
      return `<tr><th scope="row">${swatch(ri.colour)} ${e(ri.label)}</th>${cells}</tr>`;
    })
    .join('');
  const head = runs.map((r) => `<th scope="col">${swatch(r.colour)} ${e(r.label)}</th>`).join('');
  const best = matrix.best ? bestLine(matrix, runs) : '';
  return `<figure class="matrix"><div class="scroll"><table class="pairwise"><caption>${e(m.label)} <span class="meta">(${m.higherIsBetter ? 'higher' : 'lower'} is better)</span></caption><thead><tr><th>row − column</th>${head}</tr></thead><tbody>${body}</tbody></table></div>${best}</figure>`;
}

/**
 * The best run of a metric and how each other run stands against it, as the table's best group
 * says (`BestGroup`, the one `leaderboard` prints): not distinguishable, significantly worse, or
 * not compared (no p-value, e.g. no question both scored). Runs in the page's order.
 */
function bestLine(matrix: PairwiseMatrix, runs: readonly RunInfo[]): string {
  const same = new Set(matrix.indistinguishable);
  const none = new Set(matrix.notCompared);
  const parts: Record<'same' | 'worse' | 'none', string[]> = { same: [], worse: [], none: [] };
  for (const r of runs) {
    if (r.label === matrix.best) continue;
    const compared = matrix.systems.includes(r.label) && !none.has(r.label);
    parts[same.has(r.label) ? 'same' : compared ? 'worse' : 'none'].push(e(r.label));
  }
  const said = [
    parts.same.length ? `not distinguishable from it: ${parts.same.join(', ')}` : '',
    parts.worse.length ? `significantly worse: ${parts.worse.join(', ')}` : '',
    parts.none.length ? `not compared (no p-value): ${parts.none.join(', ')}` : '',
  ].filter(Boolean);
  return `<p class="meta">Best: ${e(matrix.best ?? '')}${said.length ? `; ${said.join('; ')}` : ''}.</p>`;
}

/**
 * The pairwise section of the overview: for every metric, a matrix of the runs' mean differences
 * on the questions both scored, coloured by the difference, significant cells marked, the numbers
 * on hover, each cell a link to the rows where the two runs differ. The figures are the
 * `pairwiseTable` rows `citegeist leaderboard` prints (same function, same options), only laid out
 * as a matrix: the cell below the diagonal is the one above with its sign turned.
 */
export function renderPairwiseSection(
  table: PairwiseTable | null,
  metrics: readonly MetricInfo[],
  runs: readonly RunInfo[],
): string {
  if (!table || runs.length < 2 || table.rows.length === 0) return '';
  const byMetric = new Map(pairwiseMatrices(table).map((x) => [x.metric, x]));
  const matrices = metrics.map((m) => metricMatrix(table, byMetric.get(m.id), m, runs)).join('');
  const methods = [...new Set(table.rows.map((r) => r.comparison.test.method).filter(Boolean))].join(', ');
  const how = `${TEST_NAMES[table.test]}${methods ? ` (${methods})` : ''}, ${table.iterations.toLocaleString('en-US')} resamples, seed ${table.seed}; p ${CORRECTION_NAMES[table.correction]} over ${table.comparisons} comparisons (every pair and metric); <span class="sig-mark">*</span> = adjusted p &lt; ${table.alpha}`;
  return `<section id="pairwise" aria-labelledby="pw-h"><h2 id="pw-h">Pairwise comparisons</h2>
<p class="hint">Each cell is the row's run minus the column's run: the mean difference over the questions both scored (a question failed or not applicable on either side is left out of that pair). Test: ${how}. Hover a cell for Δ with its ${Math.round(table.confidence * 100)}% bootstrap interval, p, adjusted p, pairs, items left out and the minimum detectable difference (MDD); click it for the questions where the two runs differ. <code>citegeist leaderboard</code> prints the same figures.</p>
<p class="legend pw-legend"><span class="dn3">much worse</span><span class="dn2">worse</span><span class="dn1">slightly worse</span><span class="d0">within 2% of the range</span><span class="dp1">slightly better</span><span class="dp2">better</span><span class="dp3">much better</span> <span class="meta">(for the row's run; steps at 2%, 10% and 25% of the metric's range)</span></p>
<div class="charts">${matrices}</div></section>`;
}

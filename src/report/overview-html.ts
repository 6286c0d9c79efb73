import { formatScore } from '../text/index.js';
import { escapeHtml as e } from './escape-html.js';
import { renderJudgeAgreement } from './judge-agreement-html.js';
import { own } from './own-record.js';
import { renderPairwiseSection } from './pairwise-matrix.js';
import type { GroupStats, MetricInfo, MetricStats, ReportData, RunInfo } from './report-data.js';
import { groupedMeansSvg, histogramSvg, swatch } from './svg-charts.js';

/**
 * The report's overview, rendered here as static HTML so it reads without JavaScript (and in a mail
 * client's preview): how the report was made, the leaderboard, breakdowns, distributions, cost and
 * latency, VETSCORE and ARGUE summaries. Every text from data goes through `escapeHtml`.
 */
export function renderOverview(d: ReportData): string {
  return [
    provenance(d),
    d.runs.length ? leaderboard(d) : '',
    d.judgeCards?.length ? renderJudgeAgreement(d.judgeCards) : '',
    renderPairwiseSection(d.pairwise, d.metrics, d.runs),
    d.runs.length && d.metrics.length ? breakdowns(d) : '',
    d.runs.length && d.metrics.length ? distributions(d) : '',
    d.runs.length ? costTable(d.runs) : '',
    d.vetscore ? vetscoreTable(d.vetscore.runs) : '',
    d.argue ? argueTable(d.argue.runs) : '',
  ].join('\n');
}

const run = (r: RunInfo) => `${swatch(r.colour)} ${e(r.label)}`;
const num = (x: number | null, digits = 3) => (x === null ? '–' : x.toFixed(digits));

function provenance(d: ReportData): string {
  const facts = d.facts.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('');
  const inputs = d.inputs
    .map(
      (i) =>
        `<tr><td>${e(i.kind)}</td><td class="path">${e(i.name)}</td><td class="num">${i.rows}${i.skipped ? ` <span class="bad">(${i.skipped} skipped)</span>` : ''}</td><td>${e(i.label ?? '')}</td><td>${e(i.version ?? '')}</td><td class="hash">${e(i.sha256?.slice(0, 16) ?? '')}</td></tr>`,
    )
    .join('');
  const notes = d.notes.length
    ? `<ul class="notes">${d.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>`
    : '';
  return `<section id="how" aria-labelledby="how-h"><h2 id="how-h">How this report was made</h2>
<table class="facts"><tr><th>generated</th><td>${e(d.generatedAt)} by ${e(d.tool)}</td></tr>${facts}</table>
<table class="inputs"><thead><tr><th>input</th><th>file</th><th>rows</th><th>label</th><th>written by</th><th>sha256</th></tr></thead><tbody>${inputs}</tbody></table>
${notes}</section>`;
}

function cell(s: MetricStats | undefined): string {
  if (!s || (s.n === 0 && s.failed === 0)) return '<td class="num na">n/a</td>';
  const ci = s.ci ? ` <span class="ci">[${formatScore(s.ci[0])}, ${formatScore(s.ci[1])}]</span>` : '';
  const failed = s.failed ? ` <span class="bad">${s.failed} failed</span>` : '';
  return `<td class="num">${formatScore(s.mean)}${ci} <span class="n">n=${s.n}</span>${failed}</td>`;
}

function leaderboard(d: ReportData): string {
  const head = d.metrics
    .map(
      (m) =>
        `<th title="${e(m.description)}">${e(m.label)}</th>${m.id === 'citation_accuracy_strict' ? '<th>prefix-only quotes</th>' : ''}`,
    )
    .join('');
  const body = d.runs
    .map((r, i) => {
      const cells = d.metrics
        .map((m) => {
          const c = cell(r.overall.metrics[m.id]);
          if (m.id !== 'citation_accuracy_strict') return c;
          const po = r.quotes.prefixOnly;
          return `${c}<td class="num${po ? ' warn' : ''}">${po} of ${r.quotes.checked}</td>`;
        })
        .join('');
      // Links into the rows view (the script's; without it they stay on the overview).
      const failed = r.overall.answerFailures
        ? `<a href="#rows&amp;runs=${i}&amp;failed=1">${r.overall.answerFailures}</a>`
        : '0';
      return `<tr><th scope="row"><a href="#rows&amp;runs=${i}">${run(r)}</a></th><td class="model">${e(r.model)}</td><td class="num">${r.overall.rows}</td><td class="num${r.overall.answerFailures ? ' bad' : ''}">${failed}</td>${cells}</tr>`;
    })
    .join('');
  return `<section id="leaderboard" aria-labelledby="lb-h"><h2 id="lb-h">Leaderboard</h2>
<p class="hint">Mean, 95% bootstrap CI and n per run; failures are never averaged as 0, and n/a means the metric does not apply. Citation accuracy is the published rule; the strict column drops its prefix rules, and a quote counted only because a verbatim prefix matched is a <span class="warn">prefix-only</span> quote.</p>
<div class="scroll"><table class="board"><thead><tr><th>run</th><th>model</th><th>rows</th><th>failed answers</th>${head}</tr></thead><tbody>${body}</tbody></table></div>
${metricLegend(d.metrics)}</section>`;
}

/**
 * What each column means, on the page (not only in tooltips), so a printout or a screenshot explains
 * itself: open by default, collapsible.
 */
function metricLegend(metrics: readonly MetricInfo[]): string {
  const items = metrics
    .map(
      (m) =>
        `<dt>${e(m.label)}</dt><dd>${e(m.description)} <span class="meta">Range ${m.range[0]}–${m.range[1]}, ${m.higherIsBetter ? 'higher' : 'lower'} is better.</span></dd>`,
    )
    .join('');
  return `<details class="metric-legend" open><summary>What the columns mean</summary><dl>
<dt>rows</dt><dd>Grades rows of the run (one per question answered).</dd>
<dt>failed answers</dt><dd>Rows whose answer failed (an error, not a score of 0); they are left out of every mean.</dd>
${items}${metrics.some((m) => m.id === 'citation_accuracy_strict') ? '<dt>prefix-only quotes</dt><dd>Quotes the published rule accepts only because a verbatim prefix matched; the strict matcher rejects them.</dd>' : ''}
<dt>mean [low, high] n=…</dt><dd>Mean over the rows the metric applies to, its 95% bootstrap interval, and how many rows it is over.</dd>
</dl></details>`;
}

function breakdownTable(d: ReportData, by: 'byType' | 'byDomain'): string {
  const keys = [...new Set(d.runs.flatMap((r) => Object.keys(r[by])))].sort();
  const rows: string[] = [];
  for (const key of keys) {
    for (const m of d.metrics) {
      const cells = d.runs.map((r) => {
        const g = own(r[by], key);
        return g ? own(g.metrics, m.id) : undefined;
      });
      if (cells.every((c) => !c || (c.n === 0 && c.failed === 0))) continue;
      rows.push(`<tr><th scope="row">${e(key)}</th><td>${e(m.label)}</td>${cells.map(cell).join('')}</tr>`);
    }
  }
  const head = d.runs.map((r) => `<th>${run(r)}</th>`).join('');
  return `<div class="scroll"><table class="board"><thead><tr><th>${by === 'byType' ? 'question type' : 'domain'}</th><th>metric</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function meansChart(d: ReportData, m: MetricInfo, by: 'byType' | 'byDomain'): string {
  const keys = [...new Set(d.runs.flatMap((r) => Object.keys(r[by])))].sort();
  const groups = keys
    .map((k) => ({
      group: k,
      bars: d.runs.map((r) => {
        const g: GroupStats | undefined = own(r[by], k);
        const s: MetricStats | undefined = g ? own(g.metrics, m.id) : undefined;
        return { label: r.label, colour: r.colour, mean: s?.mean ?? null, ci: s?.ci ?? null, n: s?.n ?? 0 };
      }),
    }))
    .filter((g) => g.bars.some((b) => b.mean !== null));
  if (groups.length === 0) return '';
  return `<figure><div class="chart-box">${groupedMeansSvg(`${m.label} by ${by === 'byType' ? 'question type' : 'domain'}`, m.range, groups)}</div><figcaption>${e(m.label)}</figcaption></figure>`;
}

function breakdowns(d: ReportData): string {
  const domains = new Set(d.runs.flatMap((r) => Object.keys(r.byDomain)));
  const domainPart =
    domains.size > 1
      ? `<h3>By domain</h3><div class="charts">${d.metrics.map((m) => meansChart(d, m, 'byDomain')).join('')}</div><details><summary>Table by domain</summary>${breakdownTable(d, 'byDomain')}</details>`
      : `<p class="hint">One domain: ${e([...domains][0] ?? '(none)')}.</p>`;
  return `<section id="breakdown" aria-labelledby="bd-h"><h2 id="bd-h">By question type and domain</h2>
<div class="legend">${d.runs.map(run).join(' ')}</div>
<h3>By question type</h3><div class="charts">${d.metrics.map((m) => meansChart(d, m, 'byType')).join('')}</div>
<details><summary>Table by question type</summary>${breakdownTable(d, 'byType')}</details>
${domainPart}</section>`;
}

function binLabels(range: [number, number], bins: number): string[] {
  const [lo, hi] = range;
  if (bins === hi - lo + 1) return Array.from({ length: bins }, (_, i) => String(lo + i));
  const w = (hi - lo) / bins;
  return Array.from(
    { length: bins },
    (_, i) => `${+(lo + i * w).toFixed(2)}–${+(lo + (i + 1) * w).toFixed(2)}`,
  );
}

function distributions(d: ReportData): string {
  const charts = d.metrics
    .map((m) => {
      const series = d.runs.map((r) => ({
        label: r.label,
        colour: r.colour,
        values: r.histograms[m.id] ?? [],
      }));
      const bins = series[0]?.values.length ?? 0;
      if (bins === 0 || series.every((s) => s.values.every((v) => v === 0))) return '';
      return `<figure><div class="chart-box">${histogramSvg(`Distribution of ${m.label}`, binLabels(m.range, bins), series)}</div><figcaption>${e(m.label)} (rows per score)</figcaption></figure>`;
    })
    .join('');
  return `<section id="distributions" aria-labelledby="dist-h"><h2 id="dist-h">Score distributions</h2><div class="legend">${d.runs.map(run).join(' ')}</div><div class="charts">${charts}</div></section>`;
}

function costTable(runs: readonly RunInfo[]): string {
  const body = runs
    .map((r) => {
      const c = r.cost;
      const tokens = c.tokens
        ? `${c.tokens.input.toLocaleString('en')} / ${c.tokens.output.toLocaleString('en')}`
        : '–';
      return `<tr><th scope="row">${run(r)}</th><td class="num">${c.answered}</td><td class="num">${c.cached}</td><td class="num">${num(c.latency.median, 2)}</td><td class="num">${num(c.latency.mean, 2)}</td><td class="num">${num(c.latency.p90, 2)}</td><td class="num">${c.latency.n}</td><td class="num">${c.usd === null ? '–' : `$${c.usd.toFixed(4)}`}</td><td class="num">${c.usdPerAnswer === null ? '–' : `$${c.usdPerAnswer.toFixed(5)}`}</td><td class="num">${tokens}</td></tr>`;
    })
    .join('');
  return `<section id="cost" aria-labelledby="cost-h"><h2 id="cost-h">Cost and latency</h2>
<p class="hint">Over the answers the model produced: answers served from the response cache are counted apart and left out of latency, cost and tokens.</p>
<div class="scroll"><table class="board"><thead><tr><th>run</th><th>answered</th><th>cache hits</th><th>latency median (s)</th><th>mean (s)</th><th>p90 (s)</th><th>n timed</th><th>cost</th><th>per answer</th><th>tokens in / out</th></tr></thead><tbody>${body}</tbody></table></div></section>`;
}

function vetscoreTable(runs: NonNullable<ReportData['vetscore']>['runs']): string {
  const body = runs
    .map(
      (r) =>
        `<tr><th scope="row">${e(r.label)}</th><td class="num">${r.answers}</td><td class="num">${formatScore(r.mean)}${r.ci ? ` <span class="ci">[${formatScore(r.ci[0])}, ${formatScore(r.ci[1])}]</span>` : ''} <span class="n">n=${r.scored}</span></td><td class="num${r.failed ? ' bad' : ''}">${r.failed}</td><td class="num">${r.na}</td><td class="num">${r.claims}</td><td class="num">${r.unsupported}</td><td class="num${r.unverified ? ' warn' : ''}">${r.unverified}</td><td class="num${r.claimsFailed ? ' bad' : ''}">${r.claimsFailed}</td></tr>`,
    )
    .join('');
  return `<section id="vet-overview" aria-labelledby="vet-h"><h2 id="vet-h">Faithfulness (VETSCORE)</h2>
<p class="hint">Risk-weighted score 1 − P over the scored claims (harm-weighted); unverified: the judge said supported but its evidence quote is not in the cited excerpts.</p>
<div class="scroll"><table class="board"><thead><tr><th>run</th><th>answers</th><th>mean score</th><th>failed</th><th>n/a</th><th>claims</th><th>not supported</th><th>unverified</th><th>claims failed</th></tr></thead><tbody>${body}</tbody></table></div></section>`;
}

function argueTable(runs: NonNullable<ReportData['argue']>['runs']): string {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
  const body = runs
    .map(
      (r) =>
        `<tr><th scope="row">${e(r.run)}</th><td class="num">${r.reports}</td><td class="num">${r.sentences}</td><td class="num">${r.citations}</td><td class="num">${r.attested} of ${r.judgedCitations} (${pct(r.attested, r.judgedCitations)})</td><td class="num">${r.nuggetsSatisfied} of ${r.nuggets} (${pct(r.nuggetsSatisfied, r.nuggets)})</td><td class="num${r.failed ? ' bad' : ''}">${r.failed}</td></tr>`,
    )
    .join('');
  return `<section id="argue-overview" aria-labelledby="arg-h"><h2 id="arg-h">Reports (ARGUE judgments)</h2>
<p class="hint">Counts read from the judgments (not the ARGUE scores, which <code>citegeist reports score</code> computes): citations the judge found attested, and bank nuggets met (OR: any answer; AND: every gold answer).</p>
<div class="scroll"><table class="board"><thead><tr><th>run</th><th>reports</th><th>sentences</th><th>citations</th><th>attested</th><th>nuggets met</th><th>failed judgments</th></tr></thead><tbody>${body}</tbody></table></div></section>`;
}

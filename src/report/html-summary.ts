import { formatScore } from '../text/index.js';
import { escapeHtml } from './escape-html.js';

/** One metric column of the leaderboard. */
export interface SummaryMetric {
  id: string;
  label: string;
}

/** One model's overall figures for the leaderboard. */
export interface SummaryModel {
  model: string;
  rows: number;
  answerFailures: number;
  metrics: Record<string, { mean: number | null; n: number; ci: [number, number] | null; failed: number }>;
}

/** A citation as the report shows it: the quote and where (if anywhere) it was found in the paper. */
export interface SummaryCitation {
  key: string;
  quote: string;
  found: boolean;
  rule?: string;
  /** Found only by a prefix rule: the strict matcher rejects the quote (its tail may be wrong). */
  prefixOnly?: boolean;
  page?: number | null;
  section?: string | null;
}

/** One answered and graded row. */
export interface SummaryRow {
  rowId: string;
  model: string;
  paperId: string;
  questionType: string;
  question: string;
  expectedAnswer: string;
  answer: string;
  error: string | null;
  citations: SummaryCitation[];
  scores: Record<string, number | null>;
}

export interface HtmlSummaryInput {
  title: string;
  generatedAt: string;
  /** Free-form facts shown at the top (tool version, dataset, corpus, models…). */
  facts: [string, string][];
  metrics: SummaryMetric[];
  models: SummaryModel[];
  rows: SummaryRow[];
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}details{border:1px solid #ddd;border-radius:6px;margin:.6rem 0;padding:.4rem .8rem}
summary{cursor:pointer}.q{font-weight:600}.found{color:#11691f}.missing{color:#a4161a}.muted{color:#666}
blockquote{margin:.3rem 0 .3rem 1rem;padding-left:.6rem;border-left:3px solid #ccc;white-space:pre-wrap}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem;border-radius:4px}`;

/**
 * A self-contained HTML page (inline CSS, no scripts, no external resources) summarising a graded
 * run: the leaderboard and every row with its answer and citations. All model text is escaped.
 */
export function renderHtmlSummary(input: HtmlSummaryInput): string {
  const e = escapeHtml;
  const facts = input.facts.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(input.title)}</title><style>${STYLE}</style></head><body>
<h1>${e(input.title)}</h1>
<p class="muted">Generated ${e(input.generatedAt)}. Scores are unrounded in the JSON files; n/a means not applicable, never 0.</p>
<table>${facts}</table>
<h2>Leaderboard</h2>
${leaderboard(input)}
<h2>Rows</h2>
${input.rows.map((row) => rowSection(row, input.metrics)).join('\n')}
</body></html>
`;
}

function leaderboard(input: HtmlSummaryInput): string {
  const e = escapeHtml;
  const head = input.metrics.map((m) => `<th>${e(m.label)}</th>`).join('');
  const body = input.models
    .map((model) => {
      const cells = input.metrics
        .map((m) => {
          const s = model.metrics[m.id];
          if (!s) return '<td class="num">n/a</td>';
          const ci = s.ci
            ? ` <span class="muted">[${formatScore(s.ci[0])}, ${formatScore(s.ci[1])}]</span>`
            : '';
          const fail = s.failed > 0 ? ` <span class="missing">${s.failed} failed</span>` : '';
          return `<td class="num">${formatScore(s.mean)}${ci} <span class="muted">n=${s.n}</span>${fail}</td>`;
        })
        .join('');
      return `<tr><td>${e(model.model)}</td><td class="num">${model.rows}</td><td class="num">${model.answerFailures}</td>${cells}</tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>model</th><th>rows</th><th>failed answers</th>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function rowSection(row: SummaryRow, metrics: SummaryMetric[]): string {
  const e = escapeHtml;
  const scores = metrics
    .filter((m) => m.id in row.scores)
    .map((m) => `${e(m.label)}: ${formatScore(row.scores[m.id])}`)
    .join(' · ');
  const citations = row.citations
    .map((c) => {
      const where = c.found
        ? `${c.prefixOnly ? '<span class="missing">prefix only</span> (the strict matcher rejects it; the text after the verbatim prefix may be wrong)' : '<span class="found">found</span>'} (${e(c.rule ?? '')}${c.page ? `, page ${c.page}` : ''}${c.section ? `, ${e(c.section)}` : ''})`
        : '<span class="missing">not found in the paper</span>';
      return `<li>[${e(c.key)}] ${where}<blockquote>${e(c.quote)}</blockquote></li>`;
    })
    .join('');
  const answer = row.error ? `<p class="missing">Failed: ${e(row.error)}</p>` : `<pre>${e(row.answer)}</pre>`;
  return `<details><summary><span class="q">${e(row.question)}</span> <span class="muted">${e(row.rowId)} · ${e(row.questionType)} · ${e(row.model)}</span><br><span class="muted">${scores}</span></summary>
<p><b>Expected:</b> ${e(row.expectedAnswer)}</p><p><b>Answer</b> (${e(row.paperId)}):</p>${answer}
${row.citations.length ? `<p><b>Citations</b></p><ul>${citations}</ul>` : '<p class="muted">No citations.</p>'}</details>`;
}

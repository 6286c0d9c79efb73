import {
  type ModelSummary,
  RESEARCHQA_METRICS,
  type ResearchqaMetricId,
  type Spread,
} from '../grade/index.js';
import { pythonRound } from '../python-compat/index.js';
import { renderTable } from '../text/index.js';

// Python's round(x, 3), as the published summary rounds its means (an exact tie goes to even).
const fmt = (x: number | null) => (x === null ? '–' : pythonRound(x, 3).toFixed(3));

/** Rows whose first row is the header, as a left-aligned table without a rule line. */
function pad(rows: string[][]): string {
  const [header = [], ...body] = rows;
  return renderTable(
    header.map((h) => ({ header: h })),
    body,
    { rule: false },
  );
}

/**
 * The leaderboard as a text table: one row per metric, one column per model (mean, 95% CI, n and
 * failures), and the best–worst spread. Values are rounded to 3 decimals only here.
 */
export function renderLeaderboard(models: readonly ModelSummary[], spreads: readonly Spread[]): string {
  const header = ['metric', ...models.map((m) => m.label), 'spread (best − worst)'];
  const rows: string[][] = [header];
  for (const def of RESEARCHQA_METRICS) {
    const id = def.id as ResearchqaMetricId;
    if (models.every((m) => m.overall.metrics[id].n === 0 && m.overall.metrics[id].failed === 0)) continue;
    const s = spreads.find((x) => x.metric === id);
    rows.push([
      def.label,
      ...models.map((m) => {
        const x = m.overall.metrics[id];
        const ci = x.ci ? ` [${fmt(x.ci[0])}, ${fmt(x.ci[1])}]` : '';
        return `${fmt(x.mean)}${ci} n=${x.n}${x.failed ? ` failed=${x.failed}` : ''}`;
      }),
      s?.spread === null || !s
        ? models.length < 2
          ? 'n/a (one model)'
          : '–'
        : `${fmt(s.spread)} (${s.best?.label} vs ${s.worst?.label})`,
    ]);
  }
  if (models.some((m) => m.overall.quotes.checked > 0)) {
    rows.push([
      'Prefix-only quotes',
      ...models.map((m) => `${m.overall.quotes.prefixOnly} of ${m.overall.quotes.checked}`),
      'accepted by citation accuracy only because a prefix is verbatim',
    ]);
  }
  rows.push([
    'Latency (s, median)',
    ...models.map((m) => `${fmt(m.overall.latencySeconds.median)} n=${m.overall.latencySeconds.n}`),
    '',
  ]);
  rows.push([
    'Rows (answer failures)',
    ...models.map((m) => `${m.overall.rows} (${m.overall.answerFailures})`),
    '',
  ]);
  if (models.some((m) => m.overall.cachedRows > 0)) {
    rows.push([
      'Rows from cache (not in latency, cost)',
      ...models.map((m) => String(m.overall.cachedRows)),
      '',
    ]);
  }
  return `${pad(rows)}\n`;
}

/** Mean per question type (or domain) and model for the metrics that apply there. */
export function renderBreakdown(models: readonly ModelSummary[], by: 'byType' | 'byDomain'): string {
  const keys = [...new Set(models.flatMap((m) => Object.keys(m[by])))];
  const rows: string[][] = [
    [by === 'byType' ? 'question type' : 'domain', 'metric', ...models.map((m) => m.label)],
  ];
  for (const key of keys) {
    for (const def of RESEARCHQA_METRICS) {
      const id = def.id as ResearchqaMetricId;
      const cells = models.map((m) => m[by][key]?.metrics[id]);
      if (cells.every((c) => !c || c.n === 0)) continue;
      rows.push([key, def.label, ...cells.map((c) => (c ? `${fmt(c.mean)} n=${c.n}` : '–'))]);
    }
  }
  return `${pad(rows)}\n`;
}

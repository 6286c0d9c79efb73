import type { MetricInterval } from '../grade/index.js';
import { renderTable } from '../text/index.js';

const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(4));
const ci = ([lo, hi]: [number | null, number | null]) =>
  lo === null || hi === null ? 'n/a' : `[${f(lo)}, ${f(hi)}]`;

/** The ARGUE scores of one run as a terminal table: micro and macro with their bootstrap CIs. */
export function renderArgueTable(
  runId: string,
  intervals: readonly MetricInterval[],
  confidence = 0.95,
): string {
  const pct = `${Math.round(confidence * 100)}% CI`;
  const header = [
    { header: 'metric' },
    { header: 'micro', align: 'right' as const },
    { header: pct },
    { header: 'macro', align: 'right' as const },
    { header: pct },
  ];
  const rows = intervals.map((m) => [m.metric, f(m.micro), ci(m.microCi), f(m.macro), ci(m.macroCi)]);
  const topics = intervals[0]?.topics ?? 0;
  return `run ${runId}: ${topics} topics (bootstrap over topics)\n${renderTable(header, rows)}\n`;
}

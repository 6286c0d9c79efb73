/**
 * Auto-ARGUE's scores TSV: header `run_id request_id metric value`, then per run the `all` rows
 * followed by each topic's rows, topics in sorted order; every value written as a Python float
 * (`263.0`, `0.9543726235741445`), as in hltcoe/argue-viz `assets/example-report.scores.tsv`.
 */
import { CitegeistError, location, quoteValue } from '../../core/index.js';
import { formatPythonFloat } from '../../python-compat/index.js';
import { ALL_METRICS, allValues, TOPIC_METRICS, type TopicMetric, topicValues } from './argue-metrics.js';
import type { ReportCounts } from './count-report.js';
import { type RepeatedVerdict, topicValuesOverRepeats } from './judged-repeats.js';

export interface ScoreRow {
  runId: string;
  requestId: string;
  metric: string;
  value: number;
}

export interface TopicResult {
  topicId: string;
  counts: ReportCounts;
  /** Judged K > 1 times: each repeat's counts (`counts` first); the TSV holds the mean of their values. */
  repeats?: ReportCounts[];
  /** Judged K > 1 times: each single judgment's verdict per repeat (`judged-repeats.ts`). */
  verdicts?: RepeatedVerdict[];
}

export const TSV_HEADER = 'run_id\trequest_id\tmetric\tvalue';

/** Topics in the order Auto-ARGUE writes them (sorted ids; the `all` rows come first). */
export function sortTopics<T extends { topicId: string }>(topics: readonly T[]): T[] {
  return [...topics].sort((a, b) => (a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : 0));
}

/** The rows of one run: `all` first, then each topic. */
export function argueRunRows(runId: string, topics: readonly TopicResult[]): ScoreRow[] {
  const sorted = sortTopics(topics);
  const perTopic = sorted.map((t) => ({
    topicId: t.topicId,
    values: t.repeats ? topicValuesOverRepeats(t.repeats) : topicValues(t.counts),
  }));
  const all = allValues(perTopic.map((t) => t.values));
  const rows: ScoreRow[] = ALL_METRICS.map((metric) => ({
    runId,
    requestId: 'all',
    metric,
    value: all[metric] ?? 0,
  }));
  for (const t of perTopic) {
    for (const metric of TOPIC_METRICS)
      rows.push({ runId, requestId: t.topicId, metric, value: t.values[metric] });
  }
  return rows;
}

export function formatArgueTsv(rows: readonly ScoreRow[]): string {
  const lines = [TSV_HEADER];
  for (const r of rows) lines.push(`${r.runId}\t${r.requestId}\t${r.metric}\t${formatPythonFloat(r.value)}`);
  return `${lines.join('\n')}\n`;
}

/** Reads a scores TSV (ours or Auto-ARGUE's); a malformed line is an error naming it. */
export function parseArgueTsv(text: string, file: string): ScoreRow[] {
  const lines = text.split(/\r?\n/);
  if ((lines[0] ?? '').trim() !== TSV_HEADER) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${location(file, 1)} is not an ARGUE scores header (expected ${quoteValue(TSV_HEADER)}, got ${quoteValue(lines[0])}).`,
      'Give a TSV written by `citegeist reports score` or by Auto-ARGUE.',
    );
  }
  const rows: ScoreRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const value = cells[3] === 'nan' ? Number.NaN : Number(cells[3]);
    if (cells.length !== 4 || (Number.isNaN(value) && cells[3] !== 'nan') || cells[3]?.trim() === '') {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${location(file, i + 1)} is not "run_id<TAB>request_id<TAB>metric<TAB>number": ${quoteValue(line)}.`,
        'Fix or remove the line.',
      );
    }
    rows.push({ runId: cells[0]!, requestId: cells[1]!, metric: cells[2]!, value });
  }
  return rows;
}

/** Per-topic values of one metric for one run (the `all` rows left out). */
export function perTopic(rows: readonly ScoreRow[], runId: string, metric: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows)
    if (r.runId === runId && r.metric === metric && r.requestId !== 'all') out.set(r.requestId, r.value);
  return out;
}

export function isTopicMetric(metric: string): metric is TopicMetric {
  return (TOPIC_METRICS as readonly string[]).includes(metric);
}

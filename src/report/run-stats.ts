import { type GradeRow, type GroupSummary, type MetricDefinition, summarizeGroup } from '../grade/index.js';
import { ownRecord } from './own-record.js';
import type { GroupStats, RunInfo } from './report-data.js';

/** What the cost table needs of one answer. */
export interface AnswerCost {
  cached: boolean;
  failed: boolean;
  latencySeconds: number | null;
  costUsd: number | null;
  tokens: { input: number; output: number } | null;
}

function groupStats(g: GroupSummary): GroupStats {
  return {
    rows: g.rows,
    answerFailures: g.answerFailures,
    metrics: ownRecord(
      Object.entries(g.metrics).map(
        ([id, m]) => [id, { n: m.n, mean: m.mean, ci: m.ci, failed: m.failed, na: m.notApplicable }] as const,
      ),
    ),
  };
}

function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const at = out.get(k);
    if (at) at.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** Counts of values in equal bins over the range (integer ranges get one bin per integer). */
export function histogram(values: readonly number[], [lo, hi]: [number, number]): number[] {
  const integer = Number.isInteger(lo) && Number.isInteger(hi) && hi - lo >= 2 && hi - lo <= 10;
  const bins = integer ? hi - lo + 1 : 10;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) {
    const at = integer ? Math.round(v) - lo : Math.floor(((v - lo) / (hi - lo)) * bins);
    counts[Math.max(0, Math.min(bins - 1, at))]!++;
  }
  return counts;
}

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Latency and cost over the answers the model actually produced (cache hits counted apart). */
export function costStats(answers: readonly AnswerCost[]): RunInfo['cost'] {
  const live = answers.filter((a) => !a.cached);
  const latencies = live
    .map((a) => a.latencySeconds)
    .filter((x): x is number => x !== null)
    .sort((a, b) => a - b);
  const costs = live.map((a) => a.costUsd).filter((x): x is number => x !== null);
  const tokens = live.map((a) => a.tokens).filter((t) => t !== null);
  const usd = costs.length ? costs.reduce((a, b) => a + b, 0) : null;
  return {
    answered: answers.filter((a) => !a.failed).length,
    cached: answers.length - live.length,
    latency: {
      n: latencies.length,
      median: quantile(latencies, 0.5),
      mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
      p90: quantile(latencies, 0.9),
    },
    usd,
    usdPerAnswer: usd === null ? null : usd / costs.length,
    tokens: tokens.length
      ? {
          input: tokens.reduce((a, t) => a + t.input, 0),
          output: tokens.reduce((a, t) => a + t.output, 0),
        }
      : null,
  };
}

/**
 * One run's figures: the grade stage's own summary (n, mean, bootstrap CI, failures) overall, by
 * question type and by domain, the score distributions, and cost and latency.
 */
export function runInfo(
  run: Pick<RunInfo, 'label' | 'model' | 'colour'>,
  grades: readonly GradeRow[],
  answers: readonly AnswerCost[],
  metrics: readonly MetricDefinition[],
  seed: number,
): RunInfo {
  const options = { seed };
  const slice = (key: (r: GradeRow) => string) =>
    ownRecord(
      [...groupBy(grades, key)].map(([k, rs]) => [k, groupStats(summarizeGroup(rs, options))] as const),
    );
  const overall = summarizeGroup(grades, options);
  return {
    ...run,
    overall: groupStats(overall),
    byType: slice((r) => r.question_type),
    byDomain: slice((r) => r.domain || '(none)'),
    quotes: overall.quotes,
    cost: costStats(answers),
    histograms: Object.fromEntries(
      metrics.map((m) => [
        m.id,
        histogram(
          grades
            .map((g) => (g as Record<string, unknown>)[m.id])
            .filter((x): x is number => typeof x === 'number'),
          m.range,
        ),
      ]),
    ),
  };
}

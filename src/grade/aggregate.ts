import { CitegeistError, quoteValue } from '../core/index.js';
import { bootstrapCI, median } from '../stats/index.js';
import type { GradeRow } from './grade-row.js';
import { METRIC_IDS, RESEARCHQA_METRICS, type ResearchqaMetricId } from './metric-registry.js';

/** One metric over a group of rows. */
export interface MetricSummary {
  /** Rows with a score. */
  n: number;
  mean: number | null;
  median: number | null;
  /** 95% percentile bootstrap CI of the mean (seeded). */
  ci: [number, number] | null;
  /** Rows where the metric failed (answer or judge failure): never averaged as 0. */
  failed: number;
  /** Rows where the metric does not apply. */
  notApplicable: number;
}

export interface GroupSummary {
  rows: number;
  answerFailures: number;
  /**
   * Citations checked by the quote matcher, and those it accepted only by a prefix rule (the strict
   * matcher rejects them: text after the verbatim prefix may be wrong).
   */
  quotes: { checked: number; prefixOnly: number };
  /** Rows answered from the response cache (in `rows`, not in latency or cost). */
  cachedRows: number;
  latencySeconds: { n: number; mean: number | null; median: number | null };
  costUsd: number | null;
  metrics: Record<ResearchqaMetricId, MetricSummary>;
}

export interface ModelSummary {
  /** The run's label (the model, for rows from before labels): what a leaderboard column shows. */
  label: string;
  /** The model(s) of its rows. */
  model: string;
  overall: GroupSummary;
  byType: Record<string, GroupSummary>;
  byDomain: Record<string, GroupSummary>;
}

export interface Spread {
  metric: ResearchqaMetricId;
  best: { label: string; mean: number } | null;
  worst: { label: string; mean: number } | null;
  /** best − worst of the overall means (the paper's "discrimination" figure). */
  spread: number | null;
}

export interface AggregateOptions {
  seed?: number;
  iterations?: number;
}

function summarizeMetric(
  rows: readonly GradeRow[],
  id: ResearchqaMetricId,
  options: AggregateOptions,
): MetricSummary {
  const values: number[] = [];
  let failedCount = 0;
  let na = 0;
  for (const r of rows) {
    const v = r[id];
    const status = r.status[id];
    if (typeof v === 'number') values.push(v);
    else if (status === 'failed') failedCount++;
    else na++;
  }
  const ci =
    values.length === 0
      ? null
      : bootstrapCI(values, undefined, { seed: options.seed ?? 0, iterations: options.iterations ?? 2000 });
  return {
    n: values.length,
    mean: ci?.estimate ?? null,
    median: median(values),
    ci: ci && ci.lower !== null && ci.upper !== null ? [ci.lower, ci.upper] : null,
    failed: failedCount,
    notApplicable: na,
  };
}

/** Summary of a set of grades rows (one model, one slice). */
export function summarizeGroup(rows: readonly GradeRow[], options: AggregateOptions = {}): GroupSummary {
  const latencies = rows.map((r) => r.latency_seconds).filter((x): x is number => x !== null);
  const costs = rows.map((r) => r.cost_usd).filter((x): x is number => x !== null);
  const metrics = {} as Record<ResearchqaMetricId, MetricSummary>;
  for (const id of METRIC_IDS) metrics[id] = summarizeMetric(rows, id, options);
  const rules = rows.flatMap((r) => r.citation_rules);
  return {
    rows: rows.length,
    answerFailures: rows.filter((r) => r.answer_failed).length,
    quotes: { checked: rules.length, prefixOnly: rules.filter((r) => r.prefix_only).length },
    cachedRows: rows.filter((r) => r.cached).length,
    latencySeconds: {
      n: latencies.length,
      mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
      median: median(latencies),
    },
    costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    metrics,
  };
}

function groupBy(rows: readonly GradeRow[], key: (r: GradeRow) => string): Map<string, GradeRow[]> {
  const out = new Map<string, GradeRow[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** The run a grades row belongs to: its label, else (rows from before labels) its model. */
export const runKey = (r: GradeRow): string => r.label ?? r.model;

/**
 * Per run (label): overall, by question type and by domain (METHODS §2.6), in first-seen order.
 * Throws DUPLICATE_ROW_IDS when a run has a row id twice (two files of one run, or two runs
 * under one label), which would count rows twice and narrow the intervals.
 */
export function aggregateGrades(rows: readonly GradeRow[], options: AggregateOptions = {}): ModelSummary[] {
  const out: ModelSummary[] = [];
  for (const [label, list] of groupBy(rows, runKey)) {
    const seen = new Set<string>();
    const twice = list.filter((r) => seen.size === seen.add(r.row_id).size).map((r) => r.row_id);
    if (twice.length > 0) {
      throw new CitegeistError(
        'DUPLICATE_ROW_IDS',
        `The run "${label}" has ${twice.length} row id(s) more than once (${quoteValue(twice.slice(0, 3))}): its rows would be counted twice.`,
        'Give each run once, and give runs made with different settings different labels (--label when answering or grading).',
      );
    }
    const slice = (key: (r: GradeRow) => string) =>
      Object.fromEntries([...groupBy(list, key)].map(([k, rs]) => [k, summarizeGroup(rs, options)]));
    out.push({
      label,
      model: [...new Set(list.map((r) => r.model))].join(', '),
      overall: summarizeGroup(list, options),
      byType: slice((r) => r.question_type),
      byDomain: slice((r) => r.domain || '(none)'),
    });
  }
  return out;
}

/** Best − worst model per metric on the overall means (direction from the metric registry). */
export function spreads(models: readonly ModelSummary[]): Spread[] {
  return RESEARCHQA_METRICS.map((def) => {
    const id = def.id as ResearchqaMetricId;
    const scoredModels = models
      .map((m) => ({ label: m.label, mean: m.overall.metrics[id].mean }))
      .filter((m): m is { label: string; mean: number } => m.mean !== null)
      .sort((a, b) => (def.higherIsBetter ? b.mean - a.mean : a.mean - b.mean));
    const best = scoredModels[0] ?? null;
    const worst = scoredModels.at(-1) ?? null;
    // A spread needs two models: with one, best and worst are the same model and 0 would mislead.
    const spread = best && worst && scoredModels.length > 1 ? Math.abs(best.mean - worst.mean) : null;
    return { metric: id, best, worst, spread };
  });
}

/**
 * Uncertainty and comparison for ARGUE scores, from TSV rows (ours or Auto-ARGUE's): percentile
 * bootstrap CIs over topics for the micro (ratio of resampled sums) and macro (mean of resampled
 * topics) values (two runs are compared by `argueRunsTable`).
 */
import { CitegeistError, quoteValue } from '../../core/index.js';
import { bootstrapCI } from '../../stats/index.js';
import { RATIO_METRICS, type RatioMetric } from './argue-metrics.js';
import type { ScoreRow } from './argue-tsv.js';

/** The counts whose ratio a metric is (F1 combines two ratios). */
const PARTS: Record<Exclude<RatioMetric, 'f1' | 'f1_weighted'>, [string, string]> = {
  citation_relevance: ['relevant_citations', 'citations'],
  citation_support: ['supporting_citations', 'citations'],
  sentence_support: ['correctly_cited_sentences', 'sentences_with_citations_or_requiring_citations'],
  nugget_coverage: ['correct_nuggets', 'nuggets'],
  nugget_coverage_weighted: ['correct_nuggets_weighted', 'nuggets_weighted'],
};

export interface MetricInterval {
  metric: RatioMetric;
  micro: number;
  macro: number;
  microCi: [number | null, number | null];
  macroCi: [number | null, number | null];
  topics: number;
}

export interface IntervalOptions {
  iterations?: number;
  seed?: number;
  confidence?: number;
}

/** A run's per-topic values of every metric, read from TSV rows. */
export class RunTable {
  readonly topics: string[];
  private readonly byTopic = new Map<string, Map<string, number>>();
  private readonly all = new Map<string, number>();

  constructor(
    rows: readonly ScoreRow[],
    readonly runId: string,
  ) {
    for (const r of rows) {
      if (r.runId !== runId) continue;
      if (r.requestId === 'all') {
        this.all.set(r.metric, r.value);
        continue;
      }
      const m = this.byTopic.get(r.requestId) ?? new Map<string, number>();
      m.set(r.metric, r.value);
      this.byTopic.set(r.requestId, m);
    }
    // Canonical order (topic id, code-unit order): the intervals do not depend on the TSV's row order.
    this.topics = [...this.byTopic.keys()].sort();
  }

  value(topic: string, metric: string): number {
    return this.byTopic.get(topic)?.get(metric) ?? 0;
  }

  /** The published `all` value of a metric, if the TSV has it. */
  allValue(metric: string): number | undefined {
    return this.all.get(metric);
  }

  /**
   * A system-level metric over a sample of topics (repeats allowed, for the bootstrap):
   * `<ratio>_micro` is the ratio of summed counts (F1 of the micro parts), `<ratio>_macro` or a
   * per-topic metric is the mean of the per-topic values.
   */
  over(metric: string, sample: readonly string[]): number {
    const micro = metric.endsWith('_micro');
    const base = metric.replace(/_(micro|macro)$/, '');
    if (!micro)
      return sample.length ? sample.reduce((s, t) => s + this.value(t, base), 0) / sample.length : 0;
    if (base === 'f1' || base === 'f1_weighted') {
      const c = base === 'f1' ? 'nugget_coverage_micro' : 'nugget_coverage_weighted_micro';
      return f1(this.over('sentence_support_micro', sample), this.over(c, sample));
    }
    const parts = PARTS[base as keyof typeof PARTS];
    if (!parts)
      throw new CitegeistError(
        'UNKNOWN_MEASURE',
        `${quoteValue(metric)} is not an ARGUE metric with a micro form.`,
        `Use one of ${RATIO_METRICS.map((m) => `${m}_micro`).join(', ')}.`,
      );
    const sum = (m: string) => sample.reduce((s, t) => s + this.value(t, m), 0);
    return ratio(sum(parts[0]), sum(parts[1]));
  }
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const f1 = (s: number, c: number) => (s + c > 0 ? (2 * s * c) / (s + c) : 0);

/** Micro and macro values of each ratio metric with bootstrap CIs over the run's topics. */
export function argueIntervals(
  rows: readonly ScoreRow[],
  runId: string,
  options: IntervalOptions = {},
): MetricInterval[] {
  const table = new RunTable(rows, runId);
  if (table.topics.length === 0) {
    throw new CitegeistError(
      'BAD_OPTION',
      `The scores hold no topic rows for run ${quoteValue(runId)}.`,
      'Check the run id (first column of the TSV).',
    );
  }
  const bootstrap = {
    iterations: options.iterations ?? 2000,
    seed: options.seed ?? 42,
    confidence: options.confidence ?? 0.95,
  };
  const indices = table.topics.map((_, i) => i);
  const topicsOf = (sample: readonly number[]) => sample.map((i) => table.topics[i]!);
  return RATIO_METRICS.map((metric) => {
    const macroCi = bootstrapCI(
      table.topics.map((t) => table.value(t, metric)),
      undefined,
      bootstrap,
    );
    const microCi = bootstrapCI(
      indices,
      (sample) => table.over(`${metric}_micro`, topicsOf(sample)),
      bootstrap,
    );
    return {
      metric,
      micro: table.allValue(`${metric}_micro`) ?? table.over(`${metric}_micro`, table.topics),
      macro: table.allValue(`${metric}_macro`) ?? macroCi.estimate ?? 0,
      microCi: [microCi.lower, microCi.upper],
      macroCi: [macroCi.lower, macroCi.upper],
      topics: table.topics.length,
    };
  });
}

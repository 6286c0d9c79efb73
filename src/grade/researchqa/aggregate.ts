import { CitegeistError, quoteValue } from '../../core/index.js';
import { canonicalOrder, keyedMeanInterval, median } from '../../stats/index.js';
import type { EvidenceTally } from '../evidence-grounding.js';
import type { GradeRow } from './grade-row.js';
import { METRIC_IDS, RESEARCHQA_METRICS, type ResearchqaMetricId } from './metric-registry.js';
import { tallyRubricEvidence } from './rubric-judge-grounding.js';

/** One metric over a group of rows. */
export interface MetricSummary {
  /** Rows with a score. */
  n: number;
  mean: number | null;
  median: number | null;
  /** 95% percentile bootstrap CI of the mean (seeded; rows in row-id order: `keyedMeanInterval`). */
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

/** What a group of rows keeps for its summary: counts and, per metric, the values in row order. */
class GroupTally {
  rows = 0;
  answerFailures = 0;
  quotesChecked = 0;
  prefixOnly = 0;
  cachedRows = 0;
  readonly latencies: number[] = [];
  readonly costs: number[] = [];
  readonly values = new Map<ResearchqaMetricId, number[]>(METRIC_IDS.map((id) => [id, []]));
  /** The row id of each value (the interval is computed in row-id order, whatever order rows came in). */
  readonly keys = new Map<ResearchqaMetricId, string[]>(METRIC_IDS.map((id) => [id, []]));
  readonly failed = new Map<ResearchqaMetricId, number>(METRIC_IDS.map((id) => [id, 0]));
  readonly notApplicable = new Map<ResearchqaMetricId, number>(METRIC_IDS.map((id) => [id, 0]));

  add(r: SlimGrade): void {
    this.rows++;
    if (r.latency !== null) this.latencies.push(r.latency);
    if (r.cost !== null) this.costs.push(r.cost);
    for (let m = 0; m < METRIC_IDS.length; m++) {
      const id = METRIC_IDS[m]!;
      const v = r.values[m]!;
      if (!Number.isNaN(v)) {
        this.values.get(id)!.push(v);
        this.keys.get(id)!.push(r.rowId);
      } else if (r.failed & (1 << m)) this.failed.set(id, this.failed.get(id)! + 1);
      else this.notApplicable.set(id, this.notApplicable.get(id)! + 1);
    }
    this.quotesChecked += r.quotes;
    this.prefixOnly += r.prefixOnly;
    if (r.answerFailed) this.answerFailures++;
    if (r.cached) this.cachedRows++;
  }

  summary(options: AggregateOptions): GroupSummary {
    const metrics = {} as Record<ResearchqaMetricId, MetricSummary>;
    for (const id of METRIC_IDS) {
      const values = this.values.get(id)!;
      const ci =
        values.length === 0
          ? null
          : keyedMeanInterval(this.keys.get(id)!, values, {
              seed: options.seed ?? 0,
              ...(options.iterations !== undefined ? { iterations: options.iterations } : {}),
            });
      metrics[id] = {
        n: values.length,
        mean: ci?.estimate ?? null,
        median: median(values),
        ci: ci && ci.lower !== null && ci.upper !== null ? [ci.lower, ci.upper] : null,
        failed: this.failed.get(id)!,
        notApplicable: this.notApplicable.get(id)!,
      };
    }
    const { latencies, costs } = this;
    return {
      rows: this.rows,
      answerFailures: this.answerFailures,
      quotes: { checked: this.quotesChecked, prefixOnly: this.prefixOnly },
      cachedRows: this.cachedRows,
      latencySeconds: {
        n: latencies.length,
        mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
        median: median(latencies),
      },
      costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
      metrics,
    };
  }
}

/**
 * What a summary reads of a grades row (a few hundred bytes less than the row: a grading that
 * keeps one per row for its summary need not keep the rows).
 */
class SlimGrade {
  readonly rowId: string;
  readonly model: string;
  readonly run: string;
  readonly questionType: string;
  readonly domain: string;
  readonly latency: number | null;
  readonly cost: number | null;
  readonly answerFailed: boolean;
  readonly cached: boolean;
  /** Per metric of METRIC_IDS: its value (NaN: none), and (bit m) whether metric m failed. */
  readonly values: number[];
  readonly failed: number;
  readonly quotes: number;
  readonly prefixOnly: number;
  /** The rubric judge's claims of support and how many were unverified (null: no grounding). */
  readonly judge: string | null;
  readonly judge_grounding: { claimed_support: number; unverified: number; trusted: boolean } | null;

  constructor(r: GradeRow) {
    this.rowId = r.row_id;
    this.model = r.model;
    this.run = runKey(r);
    this.questionType = r.question_type;
    this.domain = r.domain || '(none)';
    this.latency = r.latency_seconds;
    this.cost = r.cost_usd;
    this.answerFailed = r.answer_failed;
    this.cached = r.cached;
    this.values = METRIC_IDS.map((id) => r[id] ?? Number.NaN);
    this.failed = METRIC_IDS.reduce((bits, id, m) => (r.status[id] === 'failed' ? bits | (1 << m) : bits), 0);
    this.quotes = r.citation_rules.length;
    this.prefixOnly = r.citation_rules.filter((rule) => rule.prefix_only).length;
    this.judge = r.judge;
    const g = r.judge_grounding;
    this.judge_grounding = g
      ? { claimed_support: g.claimed_support, unverified: g.unverified, trusted: g.trust_unlocated_evidence }
      : null;
  }
}

/** Summary of a set of grades rows (one model, one slice). */
export function summarizeGroup(rows: readonly GradeRow[], options: AggregateOptions = {}): GroupSummary {
  const tally = new GroupTally();
  for (const r of inRowIdOrder(rows.map((g) => new SlimGrade(g)))) tally.add(r);
  return tally.summary(options);
}

/** The rows given (holes skipped) in canonical order: by row id, code-unit order (`canonicalOrder`). */
function inRowIdOrder(rows: readonly (SlimGrade | undefined)[]): SlimGrade[] {
  const present = rows.filter((r): r is SlimGrade => r !== undefined);
  return canonicalOrder(present.map((r) => r.rowId)).map((i) => present[i]!);
}

/** The run a grades row belongs to: its label, else (rows from before labels) its model. */
export const runKey = (r: GradeRow): string => r.label ?? r.model;

/** One run's tallies: overall, by question type and by domain, and the row ids seen. */
class RunTally {
  readonly models = new Set<string>();
  readonly ids = new Set<string>();
  readonly twice: string[] = [];
  readonly overall = new GroupTally();
  readonly byType = new Map<string, GroupTally>();
  readonly byDomain = new Map<string, GroupTally>();

  add(r: SlimGrade): void {
    this.models.add(r.model);
    if (this.ids.size === this.ids.add(r.rowId).size) this.twice.push(r.rowId);
    this.overall.add(r);
    slice(this.byType, r.questionType).add(r);
    slice(this.byDomain, r.domain).add(r);
  }
}

function slice(slices: Map<string, GroupTally>, key: string): GroupTally {
  let tally = slices.get(key);
  if (!tally) {
    tally = new GroupTally();
    slices.set(key, tally);
  }
  return tally;
}

/**
 * The summary of grades rows given one at a time, in any order, so a large grading need not keep
 * its rows: `put(row, at)` keeps what the summary reads of the row at position `at`, and `build`
 * is `aggregateGrades` of the rows in position order (so intervals do not depend on the order
 * rows were graded in).
 */
export class GradesSummary {
  private readonly rows: (SlimGrade | undefined)[] = [];

  /** The summary of rows given all at once, in order. */
  static of(rows: Iterable<GradeRow>): GradesSummary {
    const summary = new GradesSummary();
    for (const r of rows) summary.add(r);
    return summary;
  }

  /** Adds a row after those given so far (at the next position). */
  add(r: GradeRow): void {
    this.rows.push(new SlimGrade(r));
  }

  /** Adds a row at position `at` (replacing any row there). */
  put(r: GradeRow, at: number): void {
    this.rows[at] = new SlimGrade(r);
  }

  /** Rows given. */
  get size(): number {
    let n = 0;
    for (const r of this.rows) if (r) n++;
    return n;
  }

  /**
   * The rubric judge's claims of support per judge model (`tallyRubricEvidence` of the rows), and
   * whether any row counted unverified support as support (`--trust-unlocated-evidence`).
   */
  evidence(): { tallies: EvidenceTally[]; trusted: boolean } {
    const rows = this.rows.filter((r): r is SlimGrade => r !== undefined);
    return {
      tallies: tallyRubricEvidence(rows),
      trusted: rows.some((r) => r.judge_grounding?.trusted === true),
    };
  }

  /** See `aggregateGrades`. */
  build(options: AggregateOptions = {}): ModelSummary[] {
    const runs = new Map<string, RunTally>();
    // Runs in first-seen order (the columns), rows tallied in row-id order (the figures): every
    // sum, mean and interval is then the same whatever order the rows were graded or written in.
    for (const r of this.rows) if (r && !runs.has(r.run)) runs.set(r.run, new RunTally());
    for (const r of inRowIdOrder(this.rows)) runs.get(r.run)!.add(r);
    const out: ModelSummary[] = [];
    for (const [label, run] of runs) {
      if (run.twice.length > 0) {
        throw new CitegeistError(
          'DUPLICATE_ROW_IDS',
          `The run "${label}" has ${run.twice.length} row id(s) more than once (${quoteValue(run.twice.slice(0, 3))}): its rows would be counted twice.`,
          'Give each run once, and give runs made with different settings different labels (--label when answering or grading).',
        );
      }
      const overall = run.overall.summary(options);
      // A slice holding every row (one domain, say) is the overall summary: not bootstrapped again.
      const slices = (tallies: Map<string, GroupTally>) =>
        Object.fromEntries(
          [...tallies].map(([k, t]) => [k, t.rows === run.overall.rows ? overall : t.summary(options)]),
        );
      out.push({
        label,
        model: [...run.models].join(', '),
        overall,
        byType: slices(run.byType),
        byDomain: slices(run.byDomain),
      });
    }
    return out;
  }
}

/**
 * Per run (label): overall, by question type and by domain (METHODS §2.6), in first-seen order.
 * Throws DUPLICATE_ROW_IDS when a run has a row id twice (two files of one run, or two runs
 * under one label), which would count rows twice and narrow the intervals.
 */
export function aggregateGrades(rows: readonly GradeRow[], options: AggregateOptions = {}): ModelSummary[] {
  return GradesSummary.of(rows).build(options);
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

import { type JudgeVariance, judgeVariance, type RepeatedScores } from '../../stats/index.js';
import { runKey } from './aggregate.js';
import type { GradeRow } from './grade-row.js';
import { RESEARCHQA_METRICS } from './metric-registry.js';

/** The rubric judge's metrics, each judged K times with `grade --judge M --repeats K`. */
const JUDGED = ['factual_accuracy', 'completeness'] as const;

/** One judged metric's repeats: per system, each item's score by each judge call alone. */
export interface MetricRepeats {
  metric: string;
  higherIsBetter: boolean;
  systems: RepeatedScores[];
}

/**
 * The rubric judge's repeated scores of grades rows (`judge_repeats`), per judged metric and per
 * run (label, in first-seen order): each scored row's scores by the calls that did not fail. Rows
 * judged once, or not scored, are left out; metrics no row was judged K times on are left out.
 */
export function gradesRepeatedScores(rows: readonly GradeRow[]): MetricRepeats[] {
  const labels = [...new Set(rows.map(runKey))];
  return JUDGED.flatMap((metric) => {
    const systems = labels.map((label) => ({ label, items: new Map<string, number[]>() }));
    const byLabel = new Map(systems.map((s) => [s.label, s.items]));
    let any = false;
    for (const r of rows) {
      const k = r.judge_repeats?.[metric].filter((x) => x !== null) ?? [];
      if (r.status[metric] !== 'scored' || k.length === 0) continue;
      byLabel.get(runKey(r))!.set(r.row_id, k);
      any = true;
    }
    const higherIsBetter = RESEARCHQA_METRICS.find((d) => d.id === metric)?.higherIsBetter ?? true;
    return any ? [{ metric, higherIsBetter, systems: systems.filter((s) => s.items.size > 0) }] : [];
  });
}

/**
 * The rubric judge's own noise in grades rows judged K times: per judged metric and run, the mean
 * within-row spread and the share of rows whose score changed between calls (`judgeVariance`).
 */
export function gradesJudgeNoise(
  rows: readonly GradeRow[],
): (JudgeVariance & { metric: string; label: string })[] {
  return gradesRepeatedScores(rows).flatMap((m) =>
    m.systems.map((s) => ({ metric: m.metric, label: s.label, ...judgeVariance(s.items.values()) })),
  );
}

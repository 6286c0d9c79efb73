import {
  buildPairwiseTable,
  type ItemScore,
  type MetricScores,
  type PairwiseTable,
  type PairwiseTableOptions,
} from '../../stats/index.js';
import { runKey } from './aggregate.js';
import type { GradeRow } from './grade-row.js';
import { RESEARCHQA_METRICS, type ResearchqaMetricId } from './metric-registry.js';

/**
 * The ResearchQA metrics of grades rows as paired samples, one per metric: per run (label, in
 * first-seen order) each row id's score, or why there is none (failed, not applicable). Metrics no
 * run scored are left out.
 */
export function gradesMetricScores(rows: readonly GradeRow[]): MetricScores[] {
  const labels = [...new Set(rows.map(runKey))];
  return RESEARCHQA_METRICS.flatMap((def) => {
    const id = def.id as ResearchqaMetricId;
    const systems = labels.map((label) => ({ label, scores: new Map<string, ItemScore>() }));
    const byLabel = new Map(systems.map((s) => [s.label, s.scores]));
    let scored = 0;
    for (const r of rows) {
      const v = r[id];
      if (typeof v === 'number') scored++;
      byLabel
        .get(runKey(r))!
        .set(r.row_id, typeof v === 'number' ? v : r.status[id] === 'failed' ? 'failed' : 'not-applicable');
    }
    return scored > 0 ? [{ metric: id, higherIsBetter: def.higherIsBetter, systems }] : [];
  });
}

/**
 * Every pair of runs on every ResearchQA metric of grades rows (`buildPairwiseTable`), but those in
 * `unranked` (e.g. a judge's metrics not certified under `--require-agreement`): they are shown, not
 * compared, and not counted in the correction for multiple comparisons.
 */
export function gradesPairwise(
  rows: readonly GradeRow[],
  options: PairwiseTableOptions = {},
  unranked: ReadonlySet<string> = new Set(),
): PairwiseTable {
  return buildPairwiseTable(
    gradesMetricScores(rows).filter((m) => !unranked.has(m.metric)),
    options,
  );
}

import type { ItemScore, MetricScores } from '../../stats/index.js';
import { RATIO_METRICS } from './argue-metrics.js';
import type { ScoreRow } from './argue-tsv.js';

/**
 * The per-topic ratio metrics of ARGUE score rows as paired samples (one system per run, topics as
 * items), for `pairwiseTable`: a topic a run's judgments failed on is 'failed' (left out of every
 * pair with that run and counted), a NaN value 'not-applicable', a topic the run lacks is unshared.
 * `reports score` across runs and `compare` on scores TSVs both read topics through this.
 */
export function argueMetricScores(
  rows: readonly ScoreRow[],
  failedTopics: ReadonlyMap<string, readonly string[]> = new Map(),
): MetricScores[] {
  const topicRows = rows.filter((r) => r.requestId !== 'all');
  const runs = [...new Set(topicRows.map((r) => r.runId))];
  return RATIO_METRICS.flatMap((metric) => {
    const systems = runs.map((runId) => {
      const scores = new Map<string, ItemScore>();
      for (const t of failedTopics.get(runId) ?? []) scores.set(t, 'failed');
      for (const r of topicRows) {
        if (r.runId !== runId || r.metric !== metric) continue;
        scores.set(r.requestId, Number.isFinite(r.value) ? r.value : 'not-applicable');
      }
      return { label: runId, scores };
    });
    return systems.some((s) => s.scores.size > 0) ? [{ metric, higherIsBetter: true, systems }] : [];
  });
}

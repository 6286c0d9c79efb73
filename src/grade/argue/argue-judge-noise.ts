/**
 * The ARGUE judge's share of the variance (`reports judge --repeats K`, then `reports score`):
 * per run and per-topic ratio metric, how much a topic's value moves between the judge's repeats
 * and on how many topics it changed; per run and judgment type, on how many single judgments the
 * judge changed its verdict; and, with two or more runs judged K times, how often each keeps its
 * rank and whether each topic-by-topic difference stays significant when the judge's repeats are
 * redrawn. Every figure comes from the functions `compare` and `leaderboard` use for the rubric and
 * faithfulness judges (`judgeVariance`, `judgeNoise` → `rankStability`); nothing is computed here.
 */
import { type JudgeVariance, judgeVariance } from '../../stats/index.js';
import { type JudgeNoise, judgeNoise } from '../compare-score-files.js';
import type { MetricRepeats } from '../researchqa/grades-repeats.js';
import { RATIO_METRICS, topicValues } from './argue-metrics.js';
import { argueMetricScores } from './argue-pairwise.js';
import type { ScoreRow } from './argue-tsv.js';
import { JUDGMENT } from './judgments.js';
import type { RunScores } from './score-judgments.js';

export interface ArgueJudgeNoise {
  /** Most repeats of one report. */
  repeats: number;
  /** Per run and ratio metric: the judge's within-topic spread and the share of topics whose value changed. */
  topics: (JudgeVariance & { metric: string; label: string })[];
  /** Per run and judgment type: the share of single judgments whose verdict changed between repeats. */
  judgments: (JudgeVariance & { judgment_type: string; label: string })[];
  /** Two or more runs, each judged K times: per metric, rank stability and which differences depend on the judge. */
  comparison: JudgeNoise[];
}

/**
 * Per ratio metric, per run with topics judged K > 1 times, each scored topic's value in each
 * repeat (the items `judgeVariance` and `rankStability` take). Runs judged once are left out.
 */
export function argueRepeatedScores(runs: readonly RunScores[]): MetricRepeats[] {
  const repeated = runs.filter((r) => r.topics.some((t) => (t.repeats?.length ?? 0) > 1));
  if (repeated.length === 0) return [];
  const values = repeated.map((r) => ({
    label: r.runId,
    topics: r.topics.flatMap((t) =>
      t.repeats && t.repeats.length > 1 ? [{ topicId: t.topicId, each: t.repeats.map(topicValues) }] : [],
    ),
  }));
  return RATIO_METRICS.map((metric) => ({
    metric,
    higherIsBetter: true,
    systems: values.map((v) => ({
      label: v.label,
      items: new Map(v.topics.map((t) => [t.topicId, t.each.map((x) => x[metric])])),
    })),
  }));
}

/**
 * The judge's noise in scored runs judged K times, or null when no report was judged more than
 * once. `rows` are the TSV rows (`compareScoredRuns` pairs the same topics); `options` the seed and
 * level of the comparison.
 */
export function argueJudgeNoise(
  runs: readonly RunScores[],
  rows: readonly ScoreRow[],
  options: { seed?: number; alpha?: number } = {},
): ArgueJudgeNoise | null {
  const repeats = argueRepeatedScores(runs);
  if (repeats.length === 0) return null;
  const topics = repeats.flatMap((m) =>
    m.systems.map((s) => ({ metric: m.metric, label: s.label, ...judgeVariance(s.items.values()) })),
  );
  const judgments = runs.flatMap((run) => {
    const byType = new Map<string, number[][]>();
    for (const t of run.topics) {
      for (const v of t.verdicts ?? []) {
        const list = byType.get(v.type) ?? [];
        list.push(v.values);
        byType.set(v.type, list);
      }
    }
    // In the order of the judgment types (`JUDGMENT`), whatever order the lines came in.
    const order: readonly string[] = Object.values(JUDGMENT);
    return [...byType]
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
      .map(([type, lists]) => ({
        judgment_type: type,
        label: run.runId,
        ...judgeVariance(lists),
      }));
  });
  const failed = new Map(runs.map((r) => [r.runId, r.failedTopics.map((t) => t.topicId)]));
  const comparison = judgeNoise(argueMetricScores(rows, failed), repeats, options);
  return {
    repeats: Math.max(...topics.map((t) => t.repeats)),
    topics,
    judgments,
    comparison,
  };
}

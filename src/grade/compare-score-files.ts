import {
  buildPairwiseTable,
  type JudgeVariance,
  judgeVariance,
  type MetricScores,
  type PairwiseTable,
  type PairwiseTableOptions,
  type RankStability,
  rankStability,
} from '../stats/index.js';
import { assertComparable } from './comparable-files.js';
import type { MetricRepeats } from './researchqa/grades-repeats.js';
import { mergeScoreFiles, readScoreFile, type ScoreFileText } from './score-files.js';

/**
 * Score files compared item by item — grades files, ARGUE scores TSVs (per topic), faithfulness
 * results, qa-eval scores: each read (`readScoreFile`), refused when two were made on different
 * datasets or share fewer than `minShared` items (`assertComparable`), then every pair of their
 * systems on every metric they share (`buildPairwiseTable`: paired on shared items, failed and not
 * applicable items left out of the pair and counted). What `citegeist compare` does with them.
 */
export function compareScoreFiles(
  files: readonly ScoreFileText[],
  options: PairwiseTableOptions & { minShared?: number } = {},
): ScoreComparison {
  const read = files.map(readScoreFile);
  const { metrics, repeats } = mergeScoreFiles(read);
  assertComparable(read, options.minShared);
  const table = buildPairwiseTable(metrics, options);
  const judge = judgeNoise(metrics, repeats, options);
  return judge.length > 0 ? { ...table, judge } : table;
}

/**
 * Judged K times (faithfulness or the rubric judge with --repeats): per judged metric the judge's
 * own noise (`judgeVariance`), and whether the ranking and each significant difference survive a
 * redraw of the judge's repeats (`rankStability`) — for each metric of `metrics` every system of
 * which was judged K times. What `compare` and `leaderboard` print under the pairwise table.
 */
export function judgeNoise(
  metrics: readonly MetricScores[],
  repeats: readonly MetricRepeats[],
  options: { seed?: number; alpha?: number } = {},
): JudgeNoise[] {
  return repeats.flatMap((r) => {
    const systems = metrics.find((m) => m.metric === r.metric)?.systems ?? [];
    if (r.systems.length < 2 || r.systems.length !== systems.length) return [];
    return [
      {
        metric: r.metric,
        variance: r.systems.map((s) => ({ label: s.label, ...judgeVariance(s.items.values()) })),
        stability: rankStability(r.systems, {
          seed: options.seed ?? 0,
          alpha: options.alpha ?? 0.05,
          higherIsBetter: r.higherIsBetter,
        }),
      },
    ];
  });
}

/** One judged metric's noise in a comparison of files judged K times. */
export interface JudgeNoise {
  metric: string;
  /** Per system: the judge's within-item spread and the share of items whose verdict changed. */
  variance: (JudgeVariance & { label: string })[];
  /** How often each system keeps its rank, and which differences depend on the judge's draw. */
  stability: RankStability;
}

/** A pairwise table of score files, with the judge's noise when the files were judged K times. */
export interface ScoreComparison extends PairwiseTable {
  /** Per judged metric every system was judged K times on (faithfulness; factual_accuracy, completeness). */
  judge?: JudgeNoise[];
}

import {
  type JudgeVariance,
  judgeVariance,
  type PairwiseTable,
  type PairwiseTableOptions,
  pairwiseTable,
  type RankStability,
  rankStability,
} from '../stats/index.js';
import { assertComparable } from './comparable-files.js';
import { mergeScoreFiles, readScoreFile, type ScoreFileText } from './score-files.js';

/**
 * Score files compared item by item — grades files, ARGUE scores TSVs (per topic), faithfulness
 * results, qa-eval scores: each read (`readScoreFile`), refused when two were made on different
 * datasets or share fewer than `minShared` items (`assertComparable`), then every pair of their
 * systems on every metric they share (`pairwiseTable`: paired on shared items, failed and not
 * applicable items left out of the pair and counted). What `citegeist compare` does with them.
 */
export function compareScoreFiles(
  files: readonly ScoreFileText[],
  options: PairwiseTableOptions & { minShared?: number } = {},
): ScoreComparison {
  const read = files.map(readScoreFile);
  const { metrics, repeats } = mergeScoreFiles(read);
  assertComparable(read, options.minShared);
  const table = pairwiseTable(metrics, options);
  // Judged K times (faithfulness or the rubric judge with --repeats): per judged metric the judge's
  // own noise, and whether the ranking and each significant difference survive a redraw of the
  // judge's repeats — when every system of that metric was judged K times.
  const judge = repeats.flatMap((r) => {
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
  return judge.length > 0 ? { ...table, judge } : table;
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

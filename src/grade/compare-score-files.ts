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
  const systems = metrics[0]?.systems ?? [];
  // Judged K times (faithfulness with --repeats): the judge's own noise, and whether the ranking
  // and each significant difference survive a redraw of the judge's repeats.
  if (repeats.length < 2 || repeats.length !== systems.length) return table;
  return {
    ...table,
    judge: {
      variance: repeats.map((r) => ({ label: r.label, ...judgeVariance(r.items.values()) })),
      stability: rankStability(repeats, {
        seed: options.seed ?? 0,
        alpha: options.alpha ?? 0.05,
        higherIsBetter: metrics[0]!.higherIsBetter,
      }),
    },
  };
}

/** A pairwise table of score files, with the judge's noise when the files were judged K times. */
export interface ScoreComparison extends PairwiseTable {
  judge?: {
    /** Per system: the judge's within-item spread and the share of items whose verdict changed. */
    variance: (JudgeVariance & { label: string })[];
    /** How often each system keeps its rank, and which differences depend on the judge's draw. */
    stability: RankStability;
  };
}

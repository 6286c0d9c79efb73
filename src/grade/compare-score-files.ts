import { type PairwiseTable, type PairwiseTableOptions, pairwiseTable } from '../stats/index.js';
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
): PairwiseTable {
  const read = files.map(readScoreFile);
  const metrics = mergeScoreFiles(read);
  assertComparable(read, options.minShared);
  return pairwiseTable(metrics, options);
}

import {
  type CardNote,
  type GradeRow,
  gradesMetricScores,
  gradesRepeatedScores,
  judgeNoise,
  metricLabel,
  uncertifiedLine,
  uncertifiedMetrics,
} from '../../grade/index.js';
import { renderJudgeNoise, renderPairwiseTable } from '../../report/index.js';
import { buildPairwiseTable, type PairwiseTableOptions } from '../../stats/index.js';

/**
 * What `leaderboard` prints under the means: every pair of runs on every ranked metric (p adjusted
 * over the whole table); for grades judged K times (`grade --repeats K`) the judge's noise and rank
 * stability; each judge's card; and the metrics of judges not certified under --require-agreement,
 * which are printed but not ranked.
 */
export function leaderboardComparison(
  grades: readonly GradeRow[],
  cards: readonly CardNote[],
  options: PairwiseTableOptions,
): { json: Record<string, unknown>; text: string } {
  const unranked = uncertifiedMetrics(cards);
  // The ranked metrics' paired scores, built once for the table and the judge's noise.
  const ranked = gradesMetricScores(grades).filter((m) => !unranked.has(m.metric));
  const pairwise = buildPairwiseTable(ranked, options);
  const judge = judgeNoise(ranked, gradesRepeatedScores(grades), options);
  const text = [
    pairwise.rows.length > 0 ? `\n${renderPairwiseTable(pairwise, metricLabel)}` : '',
    ...judge.map((j) => `\n${renderJudgeNoise(j)}`),
    ...cards.map((c) => `\n${c.line}\n`),
    ...cards.filter((c) => c.uncertified !== null).map((c) => `\n${uncertifiedLine(c)}\n`),
  ].join('');
  return {
    json: {
      pairwise,
      ...(judge.length > 0 ? { judge } : {}),
      judge_cards: cards,
      unranked_metrics: [...unranked],
    },
    text,
  };
}

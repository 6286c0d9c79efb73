import { CitegeistError, quoteValue } from '../../core/index.js';
import {
  buildPairwiseTable,
  type ItemScore,
  type PairwiseTable,
  type PairwiseTableOptions,
} from '../../stats/index.js';
import { perTopic, type ScoreRow } from './argue-tsv.js';

/** One run of a scores TSV: its rows and the run id to read. */
export interface ArgueRun {
  rows: readonly ScoreRow[];
  runId: string;
}

/**
 * Run A against run B topic by topic on each per-topic metric (`reports compare`): the pairwise
 * table `leaderboard` and `compare` print (`buildPairwiseTable`: Δ = A − B on the topics both scored, a
 * NaN value not applicable, a topic only one run has left out and counted as unshared). The runs
 * are labelled by their run ids (with " (A)" and " (B)" when both files use the same id).
 */
export function argueRunsTable(
  a: ArgueRun,
  b: ArgueRun,
  metrics: readonly string[],
  options: PairwiseTableOptions = {},
): PairwiseTable {
  const same = a.runId === b.runId;
  const labels = same ? [`${a.runId} (A)`, `${b.runId} (B)`] : [a.runId, b.runId];
  return buildPairwiseTable(
    metrics.map((metric) => {
      const systems = [a, b].map((run, k) => {
        const values = perTopic(run.rows, run.runId, metric);
        if (values.size === 0) {
          throw new CitegeistError(
            'UNKNOWN_MEASURE',
            `Metric ${quoteValue(metric)} has no per-topic rows in ${run.runId}.`,
            'Use a per-topic metric such as nugget_coverage, sentence_support or f1.',
          );
        }
        const scores = new Map<string, ItemScore>();
        for (const [topic, v] of values) scores.set(topic, Number.isFinite(v) ? v : 'not-applicable');
        return { label: labels[k]!, scores };
      });
      return { metric, higherIsBetter: true, systems };
    }),
    options,
  );
}

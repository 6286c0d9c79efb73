import { type MetricInterval, type RunScores, runNotes } from '../grade/index.js';
import type { PairwiseTable } from '../stats/index.js';
import { renderArgueTable } from './argue-table.js';
import { renderPairwiseTable } from './pairwise-text.js';

/** What `reports score` made, for `renderArgueScoring`. */
export interface ArgueScoring {
  runs: readonly { run: RunScores; intervals: readonly MetricInterval[] }[];
  /** The runs compared topic by topic (two or more runs), else null. */
  pairwise: PairwiseTable | null;
  unweightedLabels: readonly string[];
  penalizeMissingTopics: boolean;
  /** The scores TSV as the user named it. */
  out: string;
}

/** `reports score` as text: per run its table and notes, then the runs compared topic by topic. */
export function renderArgueScoring(s: ArgueScoring): string {
  const parts: string[] = [];
  for (const { run, intervals } of s.runs) {
    parts.push(
      intervals.length > 0
        ? renderArgueTable(run.runId, intervals)
        : `run ${run.runId}: no topic could be scored (no rows written)\n`,
    );
    for (const n of runNotes(run, s.penalizeMissingTopics)) parts.push(`  note: ${n}\n`);
    parts.push('\n');
  }
  if (s.pairwise) parts.push(`runs compared topic by topic\n${renderPairwiseTable(s.pairwise)}\n`);
  if (s.unweightedLabels.length)
    parts.push(
      `importance labels weighted as 1: ${s.unweightedLabels.join(', ')} (set --importance-weights)\n`,
    );
  parts.push(`scores: ${s.out} (Auto-ARGUE TSV), how they were made: ${s.out}.meta.json\n`);
  return parts.join('');
}

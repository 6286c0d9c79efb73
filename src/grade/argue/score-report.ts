/**
 * What `reports score` says about a scoring besides the scores: the provenance record written
 * beside the TSV, the per-run notes (topics left out and why, what the claims of support rest on),
 * the coded line of an incomplete scoring, and the runs compared topic by topic.
 */
import { CitegeistError, quoteValue } from '../../core/index.js';
import { buildPairwiseTable, type PairwiseTable, type PairwiseTableOptions } from '../../stats/index.js';
import { argueMetricScores } from './argue-pairwise.js';
import type { ScoreRow } from './argue-tsv.js';
import type { GroundingCounts, GroundingTally } from './count-report.js';
import type { RunScores } from './score-judgments.js';

/** `vital=2,okay=1` → {vital: 2, okay: 1} (`--importance-weights`). */
export function parseImportanceWeights(value: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pair of value.split(',').filter(Boolean)) {
    const [label, weight] = pair.split('=');
    const n = Number(weight);
    if (!label || weight === undefined || !Number.isFinite(n) || n < 0) {
      throw new CitegeistError(
        'BAD_OPTION',
        `--importance-weights ${quoteValue(value)}: ${quoteValue(pair)} is not label=weight.`,
        'Pass e.g. --importance-weights vital=2,okay=1.',
      );
    }
    out[label] = n;
  }
  return out;
}

/** What `<scores>.meta.json` records besides the runs. */
export interface ScoreMetaInput {
  version: string;
  inputsSha256: unknown;
  penalizeMissingTopics: boolean;
  labelWeights: Record<string, number>;
  unweightedLabels: string[];
  superseded: number;
  problems: unknown[];
  runs: readonly RunScores[];
}

/** `<scores>.meta.json`: how the scores were made. */
export function scoreMeta(m: ScoreMetaInput) {
  return {
    tool: 'citegeist',
    version: m.version,
    method: 'argue-score',
    inputs_sha256: m.inputsSha256,
    penalize_missing_topics: m.penalizeMissingTopics,
    importance_weights: m.labelWeights,
    importance_labels_weighted_as_1: m.unweightedLabels,
    ratio_with_zero_denominator: 0,
    superseded_lines: m.superseded,
    unreadable_lines: m.problems,
    runs: m.runs.map(runMeta),
  };
}

/** The per-run part of `<scores>.meta.json`. */
function runMeta(r: RunScores) {
  return {
    run_id: r.runId,
    topics_scored: r.topics.length,
    failed_topics: r.failedTopics,
    missing_topics: r.missingTopics,
    topics_without_nuggets: r.noBank,
    unknown_questions: r.unknownQuestions,
    unknown_answers: r.unknownAnswers,
    // Claims of support in the scored topics by grounding: located; unverified (left out);
    // trusted (unverified, counted: --trust-unlocated-evidence); ungrounded (no quote checked:
    // Auto-ARGUE's judgments, counted as judged).
    supporting_citations_grounding: r.grounding.citations,
    nugget_matches_grounding: r.grounding.nuggetMatches,
  };
}

/** The notes printed under a run's table: topics left out and why, and the grounding. */
export function runNotes(run: RunScores, penalizeMissingTopics: boolean): string[] {
  return [
    run.failedTopics.length
      ? `${run.failedTopics.length} topics left out with failed judgments (${run.failedTopics.map((t) => t.topicId).join(', ')}): rerun \`reports judge\``
      : '',
    run.missingTopics.length
      ? `${run.missingTopics.length} topics without a report${penalizeMissingTopics ? ' (scored 0)' : ''}: ${run.missingTopics.slice(0, 10).join(', ')}`
      : '',
    run.noBank.length ? `${run.noBank.length} reports of topics without nuggets, not scored` : '',
    run.unknownQuestions ? `${run.unknownQuestions} matched questions not in the banks (ignored)` : '',
    ...groundingNotes(run.grounding),
  ].filter(Boolean);
}

/** What the scores rest on: claims of support whose evidence was not found, or never checked. */
function groundingNotes(g: GroundingCounts): string[] {
  const notes: string[] = [];
  const say = (t: GroundingTally, what: string, where: string) => {
    if (t.unverified > 0)
      notes.push(`${t.unverified} ${what} left out: the judge's quote is missing or not found in ${where}`);
    if (t.trusted > 0)
      notes.push(`${t.trusted} ${what} counted although unverified (--trust-unlocated-evidence when judged)`);
    if (t.ungrounded > 0)
      notes.push(
        `${t.ungrounded} ${what} counted as judged, with no evidence quote checked (judgments without grounding, such as Auto-ARGUE's)`,
      );
  };
  say(g.citations, 'attested citations', 'the cited document');
  say(g.nuggetMatches, 'nugget matches', 'the sentence');
  return notes;
}

/**
 * The coded line of a scoring that left topics or lines out (exit 1 always comes with a code, for
 * scripts that branch on it); null when nothing was left out.
 */
export function incompleteScoring(runs: readonly RunScores[], problems: number): string | null {
  const incomplete = runs.some(
    (r) => r.failedTopics.length > 0 || r.noBank.length > 0 || r.topics.length === 0,
  );
  if (!incomplete && problems === 0) return null;
  const [code, problem, fix] = runs.every((r) => r.topics.length === 0)
    ? [
        'NOTHING_IN_COMMON',
        'no topic of the judgments could be scored: their topic ids match no nugget bank (or request)',
        'Score the judgments with the nuggets and requests they were judged against (topic ids must match).',
      ]
    : runs.some((r) => r.failedTopics.length > 0)
      ? [
          'JUDGE_FAILED',
          'topics with failed judgments were left out of the scores (listed above)',
          'Rerun `citegeist reports judge` with the same --out to retry the failed judgments, then score again.',
        ]
      : runs.some((r) => r.noBank.length > 0)
        ? [
            'NUGGETS_MISSING',
            'reports of topics without a nugget bank were not scored (listed above)',
            'Add the banks of those topics to --nuggets, or leave those topics out.',
          ]
        : [
            'INVALID_INPUT',
            `${problems} line(s) of the judgments could not be read and were left out`,
            'Correct the lines named above.',
          ];
  return `error [${code}]: ${problem}.\n  fix: ${fix}`;
}

/**
 * The scored runs compared topic by topic on every per-topic ratio metric (`buildPairwiseTable`): a
 * topic whose judgments failed for a run is left out of that run's pairs and counted; null with
 * fewer than two runs with scored topics.
 */
export function compareScoredRuns(
  runs: readonly RunScores[],
  rows: readonly ScoreRow[],
  options: PairwiseTableOptions,
): PairwiseTable | null {
  if (runs.filter((r) => r.topics.length > 0).length < 2) return null;
  const failed = new Map(runs.map((r) => [r.runId, r.failedTopics.map((t) => t.topicId)]));
  return buildPairwiseTable(argueMetricScores(rows, failed), options);
}

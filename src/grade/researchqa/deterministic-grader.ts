import {
  citationCount,
  type DatasetRow,
  type RunRow,
  type RunRowRef,
  type Verdict,
} from '../../core/index.js';
import type { MatchMode, PreparedPaper } from '../../text/index.js';
import {
  type AlternativeMatch,
  type CitationScores,
  citationScores,
  type PaperQuotes,
  researchqaMatch,
  type ScoreOptions,
  spanMatch,
} from './citation-metrics.js';
import type { GradeRow } from './grade-row.js';
import type { ResearchqaMetricId } from './metric-registry.js';
import { paperQuotes } from './paper-quotes.js';

export type AlternativeMatchMode = 'researchqa' | 'span';

export interface DeterministicOptions {
  /** How a quote matches an evidence alternative (default `researchqa`: difflib ratio ≥ 0.5). */
  match?: AlternativeMatchMode;
  /** Quote matcher rules for citation accuracy and refusal correctness (default `researchqa`). */
  quoteMode?: MatchMode;
}

/** The alternative matcher of a match mode. */
export function alternativeMatcher(mode: AlternativeMatchMode): AlternativeMatch {
  if (mode === 'span') return spanMatch;
  return researchqaMatch();
}

/**
 * How a match mode scores: `researchqa` rounds per row to 3 decimals as the published grader does
 * (`round(precision, 3)` etc. in `compute_citation_metrics`, run_benchmark.py 0db211cc) so that
 * every row and every mean equals its figures; `span` stays unrounded.
 */
export function scoreOptions(mode: AlternativeMatchMode): ScoreOptions {
  return { round: mode === 'researchqa' };
}

/**
 * Grades run rows deterministically (METHODS §2.4). Each paper is prepared once (by the caller's
 * `paper` function, which should cache) and its quote lookups are memoised across rows.
 */
export class DeterministicGrader {
  private readonly match: AlternativeMatch;
  private readonly options: ScoreOptions;
  private readonly quoteMode: MatchMode;
  private readonly papers = new Map<string, PaperQuotes | null>();

  constructor(
    private readonly paper: (paperId: string) => PreparedPaper | null,
    options: DeterministicOptions = {},
  ) {
    this.match = alternativeMatcher(options.match ?? 'researchqa');
    this.options = scoreOptions(options.match ?? 'researchqa');
    this.quoteMode = options.quoteMode ?? 'researchqa';
  }

  private quotesOf(paperId: string): PaperQuotes | null {
    if (!this.papers.has(paperId)) {
      const prepared = this.paper(paperId);
      this.papers.set(paperId, prepared ? paperQuotes(prepared, this.quoteMode) : null);
    }
    return this.papers.get(paperId) ?? null;
  }

  grade(row: DatasetRow, run: RunRow): GradeRow {
    return gradeRowOf(
      row,
      run,
      citationScores(row, run, this.quotesOf(row.paper_id), this.match, this.options),
    );
  }
}

/** The grades row of an answer from its deterministic scores (judge metrics not yet set). */
export function gradeRowOf(
  row: Pick<DatasetRow, 'row_id' | 'paper_id' | 'question_type' | 'domain'>,
  run: RunRow | RunRowRef,
  scores: CitationScores,
): GradeRow {
  const out: GradeRow = {
    row_id: row.row_id,
    model: run.model,
    paper_id: row.paper_id,
    question_type: row.question_type,
    domain: row.domain,
    citation_precision: null,
    section_coverage: null,
    citation_accuracy: null,
    citation_accuracy_strict: null,
    refusal_correctness: null,
    factual_accuracy: null,
    completeness: null,
    judge_justification: null,
    judge: null,
    judge_grounding: null,
    judge_repeats: null,
    status: {},
    errors: {},
    n_citations: citationCount(run),
    // A cached reply's latency and cost describe the cache, not the model: left out of the figures.
    latency_seconds: run.latency_ms === null || run.cached ? null : run.latency_ms / 1000,
    cost_usd: run.cached ? null : run.cost_usd,
    answer_failed: run.error !== null,
    citation_rules: scores.citation_rules,
    cached: run.cached,
    label: null,
    run_row_sha256: null,
  };
  const { citation_rules: _rules, ...verdicts } = scores;
  for (const [id, verdict] of Object.entries(verdicts) as [DeterministicMetricId, Verdict<number>][]) {
    setMetric(out, id, verdict);
  }
  return out;
}

type DeterministicMetricId = Exclude<keyof CitationScores, 'citation_rules'>;

/** Writes a verdict into a grades row: value (or null), status, and the failure reason. */
export function setMetric(out: GradeRow, id: ResearchqaMetricId, verdict: Verdict<number>): void {
  out[id] = verdict.status === 'scored' ? verdict.value : null;
  out.status[id] = verdict.status;
  if (verdict.status === 'failed') out.errors[id] = verdict.reason;
}

/**
 * The parts of citation scoring that both graders share — the current one (`citation-metrics.ts`)
 * and the earlier flat-layout one (`flat-layout-metrics.ts`): the shapes they score, which rows are
 * refusal rows, the two accuracies, and the quote × evidence-group hits.
 */
import type { Citation, DatasetRow, EvidenceGroup, Span, Verdict } from '../../core/index.js';
import { failed, scored } from '../../core/index.js';
import type { MatchRule } from '../../text/index.js';

export interface QuoteCheck {
  /** The rule that matched in the grader's quote mode (`none`: not found). */
  rule: MatchRule;
  /** The rule of the strict matcher (exact, no-space or gapped; else `none`). */
  strictRule: MatchRule;
}

/** The paper a row is about, as the citation metrics need it (prepared once per paper). */
export interface PaperQuotes {
  /** Which rules of the quote matcher accept the quote against the paper text. */
  check(quote: string): QuoteCheck;
  /** Where the quote (or an evidence alternative) is in the paper text; null when not found. */
  locate(text: string): Span | null;
}

/** Decides whether a model quote matches an evidence alternative. */
export type AlternativeMatch = (quote: string, alternative: string, paper: PaperQuotes | null) => boolean;

/** Per citation of an answer: the quote matcher's rule in the grader's mode and in strict mode. */
export interface CitationRule {
  key: string;
  rule: MatchRule;
  strict_rule: MatchRule;
  /** Accepted only because a prefix of the quote is verbatim (the strict matcher rejects it). */
  prefix_only: boolean;
}

/** The deterministic ResearchQA metrics of one row, each tri-state, and the rule per citation. */
export interface CitationScores {
  citation_precision: Verdict<number>;
  section_coverage: Verdict<number>;
  citation_accuracy: Verdict<number>;
  /** Citation accuracy by the strict matcher (exact, no-space, gapped: no prefix rules). */
  citation_accuracy_strict: Verdict<number>;
  refusal_correctness: Verdict<number>;
  /** One entry per citation, in answer order (empty when the quotes were not checked). */
  citation_rules: CitationRule[];
}

export interface AnsweredRow {
  citations: readonly Citation[];
  /** false for a `--baseline` run (no citation contract). */
  contract: boolean;
  /** Set when answering failed: every metric is then `failed`. */
  error?: string | null;
}

export interface ScoreOptions {
  /**
   * Round precision, coverage and both accuracies to 3 decimals per row, as Python's `round()`
   * does (the published grader rounds before averaging; `researchqa` match mode).
   */
  round?: boolean;
}

/** The row fields the metrics read. */
export type ScoredRow = Pick<
  DatasetRow,
  'question_type' | 'expected_refusal' | 'expected_references' | 'evidence_layout'
>;

/**
 * Whether a row is graded only by refusal correctness. The published grader tests
 * `result.get("expected_refusal", True)` on a results row, and its harness always copies the key
 * (`"expected_refusal": row.get("expected_refusal")`), so a row without a value (null) is graded
 * like any other row: khoj-ai/openpaper server/evals/run_benchmark.py (0db211cc),
 * `compute_citation_metrics` and `_run_single_row`.
 */
export function isRefusalRow(row: Pick<DatasetRow, 'question_type' | 'expected_refusal'>): boolean {
  return row.question_type === 'adversarial' && row.expected_refusal === true;
}

/** Both citation accuracies (no quotes → 1; no paper → failed). */
export function accuracies(
  quoteCount: number,
  rules: readonly CitationRule[],
  havePaper: boolean,
  round: (x: Verdict<number>) => Verdict<number> = (x) => x,
): Pick<CitationScores, 'citation_accuracy' | 'citation_accuracy_strict'> {
  if (quoteCount === 0) return { citation_accuracy: scored(1), citation_accuracy_strict: scored(1) };
  if (!havePaper) return { citation_accuracy: noPaper(), citation_accuracy_strict: noPaper() };
  const share = (ok: (r: CitationRule) => boolean) => round(scored(rules.filter(ok).length / quoteCount));
  return {
    citation_accuracy: share((r) => r.rule !== 'none'),
    citation_accuracy_strict: share((r) => r.strict_rule !== 'none'),
  };
}

/** A metric that needs the paper text when it is unavailable. */
export function noPaper(): Verdict<number> {
  return failed('the paper text is not available');
}

/** Which quotes match some evidence group, and which groups some quote matches. */
export interface Hits {
  quotes: boolean[];
  groups: boolean[];
  /** Set when the matcher failed (the metrics built on the hits are then `failed`). */
  error: string | null;
}

/**
 * The quote × group matches that precision and coverage need. Pairs are tried quote by quote, each
 * quote against every alternative in turn (the difflib port keeps the tables of its `b`, the quote,
 * while it stays the same), and a pair is skipped once its quote and its group are both known to
 * match: the metrics only need the two hit lists.
 */
export function matchHits(
  quotes: readonly string[],
  groups: readonly EvidenceGroup[],
  paper: PaperQuotes | null,
  match: AlternativeMatch,
): Hits {
  const hits: Hits = { quotes: quotes.map(() => false), groups: groups.map(() => false), error: null };
  for (let q = 0; q < quotes.length; q++) {
    for (let g = 0; g < groups.length; g++) {
      if (hits.quotes[q] && hits.groups[g]) continue;
      for (const alternative of groups[g]!.alternatives) {
        try {
          if (match(quotes[q]!, alternative, paper)) {
            hits.quotes[q] = hits.groups[g] = true;
            break;
          }
        } catch (error) {
          hits.error = (error as Error).message;
          return hits;
        }
      }
    }
  }
  return hits;
}

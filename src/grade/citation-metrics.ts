import type { Citation, DatasetRow, EvidenceGroup, Span, Verdict } from '../core/index.js';
import { CitegeistError, failed, notApplicable, scored } from '../core/index.js';
import { pythonRound } from '../stats/index.js';
import { type MatchRule, sequenceRatioAtLeast } from '../text/index.js';
import { flatLayoutScores } from './flat-layout-metrics.js';

/** The quote matcher's verdict on one quote: the rule in the grader's mode, and in strict mode. */
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

/**
 * The evidence groups the metrics use: every group with a non-empty `alternatives` list, its
 * alternatives as they are (an empty or blank alternative stays and simply matches nothing), as
 * the published `_evidence_groups` keeps them (run_benchmark.py, 0db211cc).
 */
export function usableGroups(groups: readonly EvidenceGroup[]): EvidenceGroup[] {
  return groups.filter((g) => g.alternatives.length > 0);
}

const NOT_CHECKED: CitationRule[] = [];

/**
 * METHODS §2.4, as the published grader computes it (`compute_citation_metrics`). `paper` is null
 * when the paper text is unavailable: the metrics that need it (both accuracies, refusal
 * correctness, span matching) are then `failed`, never 0. Rows read from the earlier flat-list
 * dataset layout are graded as that version's grader did (`flat-layout-metrics.ts`).
 */
export function citationScores(
  row: ScoredRow,
  answer: AnsweredRow,
  paper: PaperQuotes | null,
  match: AlternativeMatch,
  options: ScoreOptions = {},
): CitationScores {
  if (answer.error) return allFailed(`the answer failed: ${answer.error}`);
  if (!answer.contract) {
    const na = notApplicable<number>('baseline run without the citation contract');
    return {
      citation_precision: na,
      section_coverage: na,
      citation_accuracy: na,
      citation_accuracy_strict: na,
      refusal_correctness: na,
      citation_rules: NOT_CHECKED,
    };
  }
  const quotes = answer.citations.map((c) => c.quote);
  const rules = paper ? citationRules(answer.citations, paper) : NOT_CHECKED;
  const round = (x: Verdict<number>): Verdict<number> =>
    options.round && x.status === 'scored' ? scored(pythonRound(x.value, 3)) : x;
  if (row.evidence_layout === 'flat') {
    const s = flatLayoutScores(row, quotes, rules, paper !== null, match, paper);
    return {
      ...s,
      citation_precision: round(s.citation_precision),
      section_coverage: round(s.section_coverage),
      citation_accuracy: round(s.citation_accuracy),
      citation_accuracy_strict: round(s.citation_accuracy_strict),
      citation_rules: rules,
    };
  }
  if (isRefusalRow(row)) {
    const na = notApplicable<number>('adversarial row expecting a refusal');
    let refusal: Verdict<number>;
    if (quotes.length === 0) refusal = scored(1);
    else refusal = paper ? scored(rules.every((r) => r.rule !== 'none') ? 1 : 0) : noPaper();
    return {
      citation_precision: na,
      section_coverage: na,
      citation_accuracy: na,
      citation_accuracy_strict: na,
      refusal_correctness: refusal,
      citation_rules: rules,
    };
  }
  const groups = usableGroups(row.expected_references);
  const hits = matchHits(quotes, groups, paper, match);
  const fraction = (found: boolean[]): Verdict<number> =>
    hits.error ? failed(hits.error) : scored(found.filter(Boolean).length / found.length);
  return {
    // No quotes: precision 1 (nothing wrong was cited). No groups: coverage 1, precision 0.
    citation_precision: round(
      quotes.length === 0 ? scored(1) : groups.length === 0 ? scored(0) : fraction(hits.quotes),
    ),
    section_coverage: round(groups.length === 0 ? scored(1) : fraction(hits.groups)),
    ...accuracies(quotes.length, rules, paper !== null, round),
    refusal_correctness: notApplicable('not an adversarial row expecting a refusal'),
    citation_rules: rules,
  };
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

function noPaper(): Verdict<number> {
  return failed('the paper text is not available');
}

/** Every metric failed with one reason. */
export function allFailed(reason: string): CitationScores {
  const f = failed<number>(reason);
  return {
    citation_precision: f,
    section_coverage: f,
    citation_accuracy: f,
    citation_accuracy_strict: f,
    refusal_correctness: f,
    citation_rules: NOT_CHECKED,
  };
}

function citationRules(citations: readonly Citation[], paper: PaperQuotes): CitationRule[] {
  return citations.map((c) => {
    const { rule, strictRule } = paper.check(c.quote);
    return {
      key: c.key,
      rule,
      strict_rule: strictRule,
      prefix_only: rule !== 'none' && strictRule === 'none',
    };
  });
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

/** Whether two lower-cased texts reach a difflib ratio threshold. */
export type RatioAtLeast = (a: string, b: string, threshold: number) => boolean;

/**
 * `researchqa` alternative matching, exactly the published `fuzzy_match(alt, act) >= 0.5`:
 * `difflib.SequenceMatcher(None, alternative.lower(), citation.lower()).ratio()`. The alternative
 * is `a` and the model's quote is `b`, so difflib's autojunk heuristic (for a `b` of 200+
 * characters) applies to the quote: khoj-ai/openpaper server/evals/run_benchmark.py (0db211cc),
 * `fuzzy_match(text_a, text_b)` and its calls `fuzzy_match(alt, act)` in `compute_citation_metrics`.
 */
export function researchqaMatch(atLeast: RatioAtLeast = sequenceRatioAtLeast): AlternativeMatch {
  // Lower-cased once per distinct string while in use (a row's quotes meet each of its alternatives;
  // a small cache keeps the strings from outliving their row and burdening the garbage collector).
  const lower = new Map<string, string>();
  const lowered = (text: string): string => {
    let out = lower.get(text);
    if (out === undefined) {
      if (lower.size >= 64) lower.clear();
      out = text.toLowerCase();
      lower.set(text, out);
    }
    return out;
  };
  return (quote, alternative) => atLeast(lowered(alternative), lowered(quote), 0.5);
}

/** `span` alternative matching: both located in the paper text with overlapping spans. */
export const spanMatch: AlternativeMatch = (quote, alternative, paper) => {
  if (!paper) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      'span matching needs the paper text, which is not available.',
      'Pass the paper text (with --papers on the command line), or match by quote instead of span.',
    );
  }
  const a = paper.locate(quote);
  if (!a) return false;
  const b = paper.locate(alternative);
  return b !== null && a.start < b.end && b.start < a.end;
};

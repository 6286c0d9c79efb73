import type { Citation, EvidenceGroup, Verdict } from '../../core/index.js';
import { CitegeistError, failed, notApplicable, scored } from '../../core/index.js';
import { pythonRound } from '../../python-compat/index.js';
import { sequenceRatioAtLeast } from '../../text/index.js';
import {
  type AlternativeMatch,
  type AnsweredRow,
  accuracies,
  type CitationRule,
  type CitationScores,
  isRefusalRow,
  matchHits,
  noPaper,
  type PaperQuotes,
  type ScoredRow,
  type ScoreOptions,
} from './citation-parts.js';
import { flatLayoutScores } from './flat-layout-metrics.js';

export {
  type AlternativeMatch,
  type AnsweredRow,
  accuracies,
  type CitationRule,
  type CitationScores,
  type Hits,
  isRefusalRow,
  matchHits,
  type PaperQuotes,
  type QuoteCheck,
  type ScoredRow,
  type ScoreOptions,
} from './citation-parts.js';

/** The quote matcher's verdict on one quote: the rule in the grader's mode, and in strict mode. */
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

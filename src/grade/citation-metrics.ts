import type { Citation, DatasetRow, EvidenceGroup, Span, Verdict } from '../core/index.js';
import { failed, notApplicable, scored } from '../core/index.js';
import { sequenceRatioAtLeast } from '../text/index.js';

/** The paper a row is about, as the citation metrics need it (prepared once per paper). */
export interface PaperQuotes {
  /** Does the quote pass the quote matcher against the paper text (mode chosen by the caller)? */
  passes(quote: string): boolean;
  /** Where the quote (or an evidence alternative) is in the paper text; null when not found. */
  locate(text: string): Span | null;
}

/** Decides whether a model quote matches an evidence alternative. */
export type AlternativeMatch = (quote: string, alternative: string, paper: PaperQuotes | null) => boolean;

/** The four deterministic ResearchQA metrics of one row, each tri-state. */
export interface CitationScores {
  citation_precision: Verdict<number>;
  section_coverage: Verdict<number>;
  citation_accuracy: Verdict<number>;
  refusal_correctness: Verdict<number>;
}

export interface AnsweredRow {
  citations: readonly Citation[];
  /** false for a `--baseline` run (no citation contract). */
  contract: boolean;
  /** Set when answering failed: every metric is then `failed`. */
  error?: string | null;
}

/** Whether a row is graded only by refusal correctness (METHODS §2.4). */
export function isRefusalRow(row: Pick<DatasetRow, 'question_type' | 'expected_refusal'>): boolean {
  return row.question_type === 'adversarial' && row.expected_refusal !== false;
}

/** Groups that have at least one non-empty alternative (the others are dropped). */
export function usableGroups(groups: readonly EvidenceGroup[]): EvidenceGroup[] {
  return groups
    .map((g) => ({ ...g, alternatives: g.alternatives.filter((a) => a.trim() !== '') }))
    .filter((g) => g.alternatives.length > 0);
}

/**
 * METHODS §2.4, exactly. `paper` is null when the paper text is unavailable: the metrics that need
 * it (citation accuracy, refusal correctness, span matching) are then `failed`, never 0.
 */
export function citationScores(
  row: Pick<DatasetRow, 'question_type' | 'expected_refusal' | 'expected_references'>,
  answer: AnsweredRow,
  paper: PaperQuotes | null,
  match: AlternativeMatch,
): CitationScores {
  if (answer.error) {
    const f = failed<number>(`the answer failed: ${answer.error}`);
    return { citation_precision: f, section_coverage: f, citation_accuracy: f, refusal_correctness: f };
  }
  if (!answer.contract) {
    const na = notApplicable<number>('baseline run without the citation contract');
    return { citation_precision: na, section_coverage: na, citation_accuracy: na, refusal_correctness: na };
  }
  const quotes = answer.citations.map((c) => c.quote);
  const noPaper = failed<number>('the paper text is not available');
  if (isRefusalRow(row)) {
    const na = notApplicable<number>('adversarial row expecting a refusal');
    let refusal: Verdict<number>;
    if (quotes.length === 0) refusal = scored(1);
    else refusal = paper ? scored(quotes.every((q) => paper.passes(q)) ? 1 : 0) : noPaper;
    return {
      citation_precision: na,
      section_coverage: na,
      citation_accuracy: na,
      refusal_correctness: refusal,
    };
  }
  const groups = usableGroups(row.expected_references);
  const accuracy: Verdict<number> =
    quotes.length === 0
      ? scored(1)
      : paper
        ? scored(quotes.filter((q) => paper.passes(q)).length / quotes.length)
        : noPaper;
  const hits = matchHits(quotes, groups, paper, match);
  const fraction = (found: boolean[]): Verdict<number> =>
    hits.error ? failed(hits.error) : scored(found.filter(Boolean).length / found.length);
  return {
    // No quotes: precision 1 (nothing wrong was cited). No groups: coverage 1, precision 0.
    citation_precision:
      quotes.length === 0 ? scored(1) : groups.length === 0 ? scored(0) : fraction(hits.quotes),
    section_coverage: groups.length === 0 ? scored(1) : fraction(hits.groups),
    citation_accuracy: accuracy,
    refusal_correctness: notApplicable('not an adversarial row expecting a refusal'),
  };
}

/** Which quotes match some evidence group, and which groups some quote matches. */
interface Hits {
  quotes: boolean[];
  groups: boolean[];
  /** Set when the matcher failed (the metrics built on the hits are then `failed`). */
  error: string | null;
}

/**
 * The quote × group matches that precision and coverage need. Pairs are tried alternative by
 * alternative, each alternative against every quote in turn (the difflib port keeps an
 * alternative's tables while it stays the same), and a pair is skipped once its quote and its group
 * are both known to match: the metrics only need the two hit lists.
 */
function matchHits(
  quotes: readonly string[],
  groups: readonly EvidenceGroup[],
  paper: PaperQuotes | null,
  match: AlternativeMatch,
): Hits {
  const hits: Hits = { quotes: quotes.map(() => false), groups: groups.map(() => false), error: null };
  for (let g = 0; g < groups.length; g++) {
    for (const alternative of groups[g]!.alternatives) {
      for (let q = 0; q < quotes.length; q++) {
        if (hits.quotes[q] && hits.groups[g]) continue;
        try {
          if (match(quotes[q]!, alternative, paper)) hits.quotes[q] = hits.groups[g] = true;
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
 * `researchqa` alternative matching: difflib ratio of the lower-cased strings ≥ 0.5
 * (`SequenceMatcher(None, quote.lower(), alternative.lower()).ratio() >= 0.5`).
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
  return (quote, alternative) => atLeast(lowered(quote), lowered(alternative), 0.5);
}

/** `span` alternative matching: both located in the paper text with overlapping spans. */
export const spanMatch: AlternativeMatch = (quote, alternative, paper) => {
  if (!paper) throw new Error('span matching needs the paper text, which is not available');
  const a = paper.locate(quote);
  if (!a) return false;
  const b = paper.locate(alternative);
  return b !== null && a.start < b.end && b.start < a.end;
};

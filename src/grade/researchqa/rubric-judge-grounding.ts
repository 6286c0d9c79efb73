/**
 * Evidence grounding for the anchored rubric judge (METHODS §2.5).
 *
 * What "support" means there: the judge grades the answer against the EXPECTED ANSWER, not the
 * paper (the paper is not in its prompt). A claim of support is the judge counting one of the
 * answer's claims as consistent with the expected answer, which every factual_accuracy above 1
 * asserts for at least one claim. So each such claim comes with two verbatim quotes: the answer's
 * words that make the claim (`claim`, located in the answer) and the expected answer's words it
 * agrees with (`expected_quote`, located in the expected answer). Both are located with the shared
 * strict locator; an item with either quote missing or not found is `unverified`.
 *
 * How unverified support counts (without `--trust-unlocated-evidence`): each unverified claim is
 * counted as a substantive error, and the judge's factual_accuracy is capped by the anchors' own
 * counting rule: one substantive error → at most 3; several → at most 2; no claim shown consistent
 * at all (every item unverified, or a score above 1 with no item) → 1 ("the core claim … is
 * fabricated"). Completeness (omissions) is not a claim of support and is left as the judge gave it.
 */
import {
  type GroundedSpan,
  type NearestEvidence,
  type QuoteLocation,
  QuoteLocator,
} from '../../text/index.js';
import type { EvidenceTally, GroundingOptions } from '../evidence-grounding.js';

/** One claim the judge counted as consistent with the expected answer, as it quoted it. */
export interface RubricEvidenceItem {
  claim: string;
  expected_quote?: string | null | undefined;
}

/** An item after its quotes were looked for. */
export interface GroundedRubricItem {
  claim: string;
  expected_quote: string | null;
  status: 'located' | 'unverified';
  /** Which quote is missing or not found (unverified only). */
  reason?: 'no-quote' | 'claim-not-in-answer' | 'quote-not-in-expected-answer';
  /** The claim's words in the answer. */
  claim_span: GroundedSpan | null;
  /** The quote in the expected answer. */
  span: GroundedSpan | null;
  /** The expected-answer passage nearest to an unlocated quote. */
  nearest: NearestEvidence | null;
}

/** The grounding of one rubric verdict, written beside the scores (`judge_grounding`). */
export interface RubricGrounding {
  /** The judge's own factual_accuracy, before grounding. */
  judge_factual_accuracy: number;
  /** The factual_accuracy that counts (capped when support is unverified and not trusted). */
  factual_accuracy: number;
  trust_unlocated_evidence: boolean;
  /** Claims of support: the items, or 1 for a score above 1 given without any item. */
  claimed_support: number;
  unverified: number;
  evidence: GroundedRubricItem[];
}

const ANSWER = 'answer';
const EXPECTED = 'expected_answer';

function groundItem(
  item: RubricEvidenceItem,
  answer: string,
  expected: string,
  locator: QuoteLocator,
): GroundedRubricItem {
  const quote = item.expected_quote?.trim() || null;
  const inAnswer = locator.locate(item.claim, [{ key: ANSWER, text: answer }]);
  const inExpected = locator.locate(quote, [{ key: EXPECTED, text: expected }]);
  const span = (l: QuoteLocation) => (l.status === 'located' ? l.span : null);
  const base = {
    claim: item.claim,
    expected_quote: quote,
    claim_span: span(inAnswer),
    span: span(inExpected),
  };
  if (inAnswer.status === 'located' && inExpected.status === 'located') {
    return { ...base, status: 'located', nearest: null };
  }
  const reason =
    inAnswer.status === 'no-quote' || inExpected.status === 'no-quote'
      ? 'no-quote'
      : inAnswer.status !== 'located'
        ? 'claim-not-in-answer'
        : 'quote-not-in-expected-answer';
  const nearest = inExpected.status === 'unverified' ? inExpected.nearest : null;
  return { ...base, status: 'unverified', reason, nearest };
}

/**
 * The factual_accuracy that counts when `unverified` of `claimed` claims of support could not be
 * shown: each unverified claim is a substantive error under the anchors of METHODS §2.5.
 */
export function cappedAccuracy(score: number, claimed: number, unverified: number): number {
  if (unverified === 0) return score;
  if (unverified >= claimed) return 1;
  return Math.min(score, unverified === 1 ? 3 : 2);
}

/** Grounds one rubric verdict (see the file comment for the rule). */
export function groundRubricVerdict(
  scores: { factual_accuracy: number; evidence?: readonly RubricEvidenceItem[] | null | undefined },
  texts: { answer: string; expectedAnswer: string },
  options: GroundingOptions & { locator?: QuoteLocator } = {},
): RubricGrounding {
  const locator = options.locator ?? new QuoteLocator(4);
  const evidence = (scores.evidence ?? []).map((item) =>
    groundItem(item, texts.answer, texts.expectedAnswer, locator),
  );
  // A score above 1 says some claim is consistent; with no item, that claim of support has no quote.
  const bare = scores.factual_accuracy > 1 && evidence.length === 0;
  const claimed = bare ? 1 : evidence.length;
  const unverified = bare ? 1 : evidence.filter((e) => e.status === 'unverified').length;
  const trusted = options.trustUnlocatedEvidence === true;
  return {
    judge_factual_accuracy: scores.factual_accuracy,
    factual_accuracy: trusted
      ? scores.factual_accuracy
      : cappedAccuracy(scores.factual_accuracy, claimed, unverified),
    trust_unlocated_evidence: trusted,
    claimed_support: claimed,
    unverified,
    evidence,
  };
}

/** Per judge model: the rubric verdicts' claims of support and how many were unverified. */
export function tallyRubricEvidence(
  grades: Iterable<{
    judge: string | null;
    judge_grounding: Pick<RubricGrounding, 'claimed_support' | 'unverified'> | null;
  }>,
): EvidenceTally[] {
  const byJudge = new Map<string, EvidenceTally>();
  for (const g of grades) {
    if (g.judge === null || g.judge_grounding === null) continue;
    const t = byJudge.get(g.judge) ?? { judge: g.judge, claimed_support: 0, located: 0, unverified: 0 };
    t.claimed_support += g.judge_grounding.claimed_support;
    t.unverified += g.judge_grounding.unverified;
    t.located = t.claimed_support - t.unverified;
    byJudge.set(g.judge, t);
  }
  return [...byJudge.values()];
}

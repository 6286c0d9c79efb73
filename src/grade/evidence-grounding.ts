/**
 * The one policy for judge verdicts that claim support (VETSCORE verification, the rubric judge,
 * ARGUE attestation and nugget matching): a claim of support stands only where its evidence quote
 * is found in the text the judge was shown (`QuoteLocator`, strict quote matcher). A supported
 * verdict whose quote is missing or cannot be located is `unverified`: it keeps the nearest passage
 * as a diagnostic and counts as unsupported in the score, unless the user passes
 * `--trust-unlocated-evidence` (then it counts as the judge said, and is still reported as
 * unverified). A judge that cannot show where the support is has not shown support.
 */
import type { GroundedSpan, NearestEvidence, QuoteLocation } from '../text/index.js';

export interface GroundingOptions {
  /** Count unverified support as support (`--trust-unlocated-evidence`; default false). */
  readonly trustUnlocatedEvidence?: boolean;
}

/** A claim of support after its quote was looked for; written as is into result rows. */
export interface SupportGrounding {
  status: 'located' | 'unverified';
  /** Why unverified: no quote was given, or the quote is not in the cited text. */
  reason?: 'no-quote' | 'not-found';
  /** Where the quote sits (located only). */
  span: GroundedSpan | null;
  /** The passage closest to an unlocated quote (unverified only; null without a quote). */
  nearest: NearestEvidence | null;
  /** Whether the verdict counts as support in the score. */
  counts: boolean;
}

/** Applies the policy to one located (or not) quote of a verdict that claims support. */
export function groundSupport(location: QuoteLocation, options: GroundingOptions = {}): SupportGrounding {
  if (location.status === 'located') {
    return { status: 'located', span: location.span, nearest: null, counts: true };
  }
  return {
    status: 'unverified',
    reason: location.status === 'no-quote' ? 'no-quote' : 'not-found',
    span: null,
    nearest: location.status === 'unverified' ? location.nearest : null,
    counts: options.trustUnlocatedEvidence === true,
  };
}

/** How many verdicts of one judge model claimed support, and how many of those were located. */
export interface EvidenceTally {
  judge: string;
  claimed_support: number;
  located: number;
  unverified: number;
}

/** Tallies claims of support per judge model (in order of first appearance). */
export function tallyEvidence(
  items: Iterable<{ judge: string; status: 'located' | 'unverified' }>,
): EvidenceTally[] {
  const byJudge = new Map<string, EvidenceTally>();
  for (const { judge, status } of items) {
    let t = byJudge.get(judge);
    if (!t) {
      t = { judge, claimed_support: 0, located: 0, unverified: 0 };
      byJudge.set(judge, t);
    }
    t.claimed_support++;
    t[status]++;
  }
  return [...byJudge.values()];
}

/** Adds tallies of the same judges (e.g. per-answer tallies into a batch's). */
export function mergeTallies(lists: Iterable<readonly EvidenceTally[]>): EvidenceTally[] {
  const byJudge = new Map<string, EvidenceTally>();
  for (const list of lists) {
    for (const t of list) {
      const sum = byJudge.get(t.judge) ?? { judge: t.judge, claimed_support: 0, located: 0, unverified: 0 };
      sum.claimed_support += t.claimed_support;
      sum.located += t.located;
      sum.unverified += t.unverified;
      byJudge.set(t.judge, sum);
    }
  }
  return [...byJudge.values()];
}

/** Terminal lines: per judge model, the verdicts that claimed support and how many are unverified. */
export function renderEvidenceTally(
  tallies: readonly EvidenceTally[],
  trusted: boolean,
  words: { what?: string; where?: string } = {},
): string[] {
  const what = words.what ?? 'verdicts claiming support';
  const where = words.where ?? 'the cited text';
  const counted = trusted
    ? 'counted as supported: --trust-unlocated-evidence'
    : 'counted as unsupported; --trust-unlocated-evidence counts them as supported';
  return tallies.map(
    (t) =>
      `${t.judge}: ${t.unverified} of ${t.claimed_support} ${what} unverified (quote missing or not found in ${where}; ${counted})`,
  );
}

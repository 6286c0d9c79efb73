import type { LlmProvider } from '../../llm/index.js';
import { type NearestEvidence, QuoteLocator } from '../../text/index.js';
import { type EvidenceTally, tallyEvidence } from '../evidence-grounding.js';
import { riskWeightedScore } from './aggregate.js';
import { decomposeSegment } from './decompose.js';
import type { FaithfulnessInput } from './input.js';
import { type ClaimResult, type JudgeSettings, judgeClaim } from './judge-claim.js';
import { type RepeatAgreement, repeatAgreement } from './repeats.js';
import { segmentAnswer } from './segment.js';

export interface FaithfulnessSettings extends JudgeSettings {
  decomposer: LlmProvider;
  /** The harm exponent p of METHODS §3.4. */
  p: number;
}

export interface SegmentResult {
  index: number;
  text: string;
  start: number;
  end: number;
  /** Keys its markers cite; `excerpt_keys` are those found in the sources. */
  keys: string[];
  excerpt_keys: string[];
  problems: string[];
  /** `failed` when decomposition failed; `not-applicable` when it has no claims. */
  status: 'scored' | 'not-applicable' | 'failed';
  failure?: string;
  /** P_s over the segment's scored claims; null when it has none. */
  penalty: number | null;
  claims: ClaimResult[];
}

export interface Coverage {
  segments: number;
  segments_failed: number;
  claims: number;
  claims_scored: number;
  claims_failed: number;
  /**
   * claims_scored / (claims + segments_failed): a segment whose decomposition failed has claims
   * nobody knows, so it counts as one claim not covered (never as nothing to cover). Null only
   * when there is nothing at all to cover.
   */
  rate: number | null;
}

/** The coverage rate (see `Coverage.rate`). */
export function coverageRate(claimsScored: number, claims: number, segmentsFailed: number): number | null {
  const units = claims + segmentsFailed;
  return units === 0 ? null : claimsScored / units;
}

export interface UnsupportedClaim {
  segment: number;
  claim: number;
  text: string;
  w: number;
  verdict: string | null;
  rationale: string | null;
  /** For an `unverified` verdict: the judge's quote and the excerpt passage nearest to it. */
  evidence_quote?: string | null;
  nearest?: NearestEvidence | null;
}

/** The per-answer output row of `grade faithfulness`. */
export interface AnswerGrade {
  id: string;
  question: string;
  status: 'scored' | 'not-applicable' | 'failed';
  /** 1 − P over the scored claims; null when not applicable or failed. */
  score: number | null;
  p: number;
  mode: 'separate' | 'joint';
  repeats: number;
  judges: { decomposer: string; verifier: string; harm: string };
  /** Whether unverified support was counted as support (`--trust-unlocated-evidence`). */
  trust_unlocated_evidence: boolean;
  /** The verifier's verdicts that claimed support, and how many of their quotes were located. */
  evidence: EvidenceTally[];
  segments: SegmentResult[];
  coverage: Coverage;
  failures: string[];
  /** Unsupported scored claims, highest harm first. */
  unsupported: UnsupportedClaim[];
  agreement?: { verification: RepeatAgreement; harm: RepeatAgreement };
}

/** Runs segmentation → decomposition → judges → aggregation on one answer. Never throws on model output. */
export async function gradeAnswer(
  input: FaithfulnessInput,
  settings: FaithfulnessSettings,
): Promise<AnswerGrade> {
  // One locator per answer unless the caller shares one: the claims of a segment quote the same excerpts.
  const s = settings.locator ? settings : { ...settings, locator: new QuoteLocator() };
  const segments = segmentAnswer(input.answer, input.sources);
  const results = await Promise.all(
    segments.map(async (segment): Promise<SegmentResult> => {
      const base = {
        index: segment.index,
        text: segment.text,
        start: segment.start,
        end: segment.end,
        keys: segment.keys,
        excerpt_keys: segment.excerpts.map((e) => e.key),
        problems: segment.problems,
        penalty: null,
      };
      const decomposition = await decomposeSegment(
        s.decomposer,
        { question: input.question, segment },
        s.call,
      );
      if (!decomposition.ok) return { ...base, status: 'failed', failure: decomposition.reason, claims: [] };
      const claims = await Promise.all(
        decomposition.claims.map((claim, i) =>
          judgeClaim(s, i, {
            question: input.question,
            segment: segment.text,
            claim,
            excerpts: segment.excerpts,
          }),
        ),
      );
      return { ...base, status: claims.length === 0 ? 'not-applicable' : 'scored', claims };
    }),
  );
  return finish(input, s, results);
}

function finish(input: FaithfulnessInput, s: FaithfulnessSettings, segments: SegmentResult[]): AnswerGrade {
  const scoredClaims = segments.map((seg) => ({
    claims: seg.claims.flatMap((c) =>
      c.status === 'scored' && c.v !== null && c.w !== null ? [{ verified: c.v, harm: c.w }] : [],
    ),
  }));
  const { score, segmentPenalties } = riskWeightedScore(scoredClaims, { p: s.p });
  segments.forEach((seg, i) => {
    seg.penalty = segmentPenalties[i] ?? null;
  });
  const all = segments.flatMap((seg) => seg.claims);
  const failures = [
    ...segments.flatMap((seg) => (seg.failure ? [`segment ${seg.index}: ${seg.failure}`] : [])),
    ...segments.flatMap((seg) =>
      seg.claims.flatMap((c) => (c.failure ? [`segment ${seg.index} claim ${c.index}: ${c.failure}`] : [])),
    ),
  ];
  const scored = all.filter((c) => c.status === 'scored').length;
  const segmentsFailed = segments.filter((seg) => seg.status === 'failed').length;
  const coverage: Coverage = {
    segments: segments.length,
    segments_failed: segmentsFailed,
    claims: all.length,
    claims_scored: scored,
    claims_failed: all.length - scored,
    rate: coverageRate(scored, all.length, segmentsFailed),
  };
  const grade: AnswerGrade = {
    id: input.id,
    question: input.question,
    status: score !== null ? 'scored' : failures.length > 0 ? 'failed' : 'not-applicable',
    score,
    p: s.p,
    mode: s.mode,
    repeats: s.repeats,
    judges: {
      decomposer: s.decomposer.id,
      verifier: s.verifier.id,
      harm: s.mode === 'joint' ? s.verifier.id : s.harmJudge.id,
    },
    trust_unlocated_evidence: s.trustUnlocatedEvidence === true,
    evidence: tallyEvidence(
      all
        .flatMap((c) => c.repeats?.verdicts ?? [c.verdict])
        .flatMap((verdict) =>
          verdict === 'supported' || verdict === 'unverified'
            ? [
                {
                  judge: s.verifier.id,
                  status: verdict === 'supported' ? ('located' as const) : ('unverified' as const),
                },
              ]
            : [],
        ),
    ),
    segments,
    coverage,
    failures,
    unsupported: unsupportedClaims(segments),
  };
  if (s.repeats > 1) {
    grade.agreement = {
      verification: repeatAgreement(
        all.map((c) => c.repeats?.v.map((x) => (x === null ? null : x === 1)) ?? []),
      ),
      harm: repeatAgreement(all.map((c) => c.repeats?.harms ?? [])),
    };
  }
  return grade;
}

/** Unsupported scored claims sorted by harm (desc), then by position. */
export function unsupportedClaims(segments: SegmentResult[]): UnsupportedClaim[] {
  return segments
    .flatMap((seg) =>
      seg.claims
        .filter((c) => c.status === 'scored' && c.v === 0)
        .map((c) => ({
          segment: seg.index,
          claim: c.index,
          text: c.text,
          w: c.w ?? 0,
          verdict: c.verdict,
          rationale: c.rationale,
          ...(c.verdict === 'unverified' ? { evidence_quote: c.evidence_quote, nearest: c.nearest } : {}),
        })),
    )
    .sort((a, b) => b.w - a.w || a.segment - b.segment || a.claim - b.claim);
}

export type { ClaimResult };

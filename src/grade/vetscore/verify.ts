import type { LlmProvider } from '../../llm/index.js';
import { type GroundedSpan, type NearestEvidence, QuoteLocator } from '../../text/index.js';
import { type GroundingOptions, groundSupport } from '../evidence-grounding.js';
import { type CallOptions, callModel } from './llm-call.js';
import { type Verification, VerificationSchema, verifyPrompt } from './prompts/index.js';
import type { Excerpt } from './segment.js';

/**
 * The judge's verdict, or `unverified`: the judge said "supported" but its evidence quote is missing
 * or is not in the cited excerpts (see `evidence-grounding.ts`).
 */
export type VerdictLabel = Verification['verdict'] | 'unverified';

/** A verification judgment: the verdict, its 0/1 value, and where the support sits. */
export interface VerificationJudgment {
  verdict: VerdictLabel;
  v: 0 | 1;
  rationale: string;
  evidenceQuote: string | null;
  /** The evidence quote located in an excerpt (supported verdicts only). */
  span: GroundedSpan | null;
  /** The excerpt passage nearest to the quote of an unverified verdict (null without a quote). */
  nearest: NearestEvidence | null;
}

/** How verdicts are grounded: the policy, and a locator that prepares each excerpt once. */
export interface VerifyOptions extends GroundingOptions {
  locator?: QuoteLocator;
}

export type JudgeOutcome<T> = { ok: true; value: T } | { ok: false; reason: string; raw: string };

export const NO_EXCERPT_RATIONALE =
  'The segment cites no known source excerpt, so nothing can support the claim (unsupported by definition).';

/** The judgment of a claim whose segment cites no excerpt: unsupported by definition. */
export function noExcerptJudgment(): VerificationJudgment {
  const none = { evidenceQuote: null, span: null, nearest: null };
  return { verdict: 'unsupported', v: 0, rationale: NO_EXCERPT_RATIONALE, ...none };
}

/**
 * Maps a verdict to v (contradicted and unsupported → 0) and grounds a supported one: its quote is
 * located in the excerpts with the strict quote matcher; when it is not there (or there is none) the
 * verdict is `unverified` and v = 0, unless `trustUnlocatedEvidence`.
 */
export function toVerification(
  value: Verification,
  excerpts: Excerpt[],
  options: VerifyOptions = {},
): VerificationJudgment {
  const quote = value.evidence_quote?.trim() || null;
  const base = { rationale: value.rationale, evidenceQuote: quote, span: null, nearest: null };
  if (value.verdict !== 'supported') return { ...base, verdict: value.verdict, v: 0 };
  const grounding = groundSupport(
    (options.locator ?? new QuoteLocator(excerpts.length + 1)).locate(quote, excerpts),
    options,
  );
  return {
    ...base,
    verdict: grounding.status === 'located' ? 'supported' : 'unverified',
    v: grounding.counts ? 1 : 0,
    span: grounding.span,
    nearest: grounding.nearest,
  };
}

/**
 * Stage 3a (METHODS §3.3): is the claim supported by the segment's excerpts? A segment without
 * (known) excerpts cannot support anything: its claims are `unsupported` without a model call.
 */
export async function verifyClaim(
  llm: LlmProvider,
  input: { claim: string; excerpts: Excerpt[] },
  options: CallOptions & VerifyOptions = {},
): Promise<JudgeOutcome<VerificationJudgment>> {
  if (input.excerpts.length === 0) return { ok: true, value: noExcerptJudgment() };
  const result = await callModel(llm, verifyPrompt(input), VerificationSchema, 'verification', options);
  if (!result.ok)
    return { ok: false, reason: `verification judge failed: ${result.reason}`, raw: result.raw };
  return { ok: true, value: toVerification(result.value, input.excerpts, options) };
}

import type { LlmProvider } from '../../llm/index.js';
import { type EvidenceSpan, locateEvidence } from './evidence-span.js';
import { type CallOptions, callModel } from './llm-call.js';
import { type Verification, VerificationSchema, verifyPrompt } from './prompts/index.js';
import type { Excerpt } from './segment.js';

export type VerdictLabel = Verification['verdict'];

/** A verification judgment: the verdict, its 0/1 value, and where the support sits. */
export interface VerificationJudgment {
  verdict: VerdictLabel;
  v: 0 | 1;
  rationale: string;
  evidenceQuote: string | null;
  /** The evidence quote located in an excerpt (supported claims only); null when not found. */
  span: EvidenceSpan | null;
}

export type JudgeOutcome<T> = { ok: true; value: T } | { ok: false; reason: string; raw: string };

export const NO_EXCERPT_RATIONALE =
  'The segment cites no known source excerpt, so nothing can support the claim (unsupported by definition).';

/** Maps a verdict to v (contradicted and unsupported → 0) and locates the evidence of a supported one. */
export function toVerification(value: Verification, excerpts: Excerpt[]): VerificationJudgment {
  const v = value.verdict === 'supported' ? 1 : 0;
  const quote = value.evidence_quote?.trim() || null;
  const span = v === 1 && quote !== null ? locateEvidence(quote, excerpts) : null;
  return { verdict: value.verdict, v, rationale: value.rationale, evidenceQuote: quote, span };
}

/**
 * Stage 3a (METHODS §3.3): is the claim supported by the segment's excerpts? A segment without
 * (known) excerpts cannot support anything: its claims are `unsupported` without a model call.
 */
export async function verifyClaim(
  llm: LlmProvider,
  input: { claim: string; excerpts: Excerpt[] },
  options: CallOptions = {},
): Promise<JudgeOutcome<VerificationJudgment>> {
  if (input.excerpts.length === 0) {
    return {
      ok: true,
      value: {
        verdict: 'unsupported',
        v: 0,
        rationale: NO_EXCERPT_RATIONALE,
        evidenceQuote: null,
        span: null,
      },
    };
  }
  const result = await callModel(llm, verifyPrompt(input), VerificationSchema, 'verification', options);
  if (!result.ok)
    return { ok: false, reason: `verification judge failed: ${result.reason}`, raw: result.raw };
  return { ok: true, value: toVerification(result.value, input.excerpts) };
}

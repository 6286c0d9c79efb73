import type { LlmProvider } from '../../llm/index.js';
import type { GroundedSpan, NearestEvidence, QuoteLocator } from '../../text/index.js';
import { type HarmJudgment, type HarmLevel, rateHarm } from './harm.js';
import { judgeJointly } from './joint.js';
import type { CallOptions } from './llm-call.js';
import { majorityVerified, medianHarm } from './repeats.js';
import type { Excerpt } from './segment.js';
import { type JudgeOutcome, type VerdictLabel, type VerificationJudgment, verifyClaim } from './verify.js';

/** How claims are judged: which models, separate or joint prompts, how many repeats, which rubric. */
export interface JudgeSettings {
  verifier: LlmProvider;
  harmJudge: LlmProvider;
  mode: 'separate' | 'joint';
  repeats: number;
  rubric: string;
  call: CallOptions;
  /** Count supported verdicts whose evidence quote is not in the excerpts as supported (default false). */
  trustUnlocatedEvidence?: boolean;
  /** Prepares each excerpt once for locating evidence quotes (a new one per claim when absent). */
  locator?: QuoteLocator;
}

/** One claim as written to the output: `scored` (v and w set) or `failed` (a judge broke; never 0). */
export interface ClaimResult {
  index: number;
  text: string;
  status: 'scored' | 'failed';
  v: 0 | 1 | null;
  w: HarmLevel | null;
  verdict: VerdictLabel | null;
  rationale: string | null;
  harm_rationale: string | null;
  evidence_quote: string | null;
  /** Where the evidence quote sits: excerpt key, [start, end) in it, matched text, rule (`supported`). */
  span: GroundedSpan | null;
  /** The excerpt passage nearest to the quote of an `unverified` verdict (null without a quote). */
  nearest: NearestEvidence | null;
  failure?: string;
  /** Per-repeat judgments when `repeats > 1` (null = that call failed). */
  repeats?: {
    verdicts: (VerdictLabel | null)[];
    /** The 0/1 value of each verdict (after grounding, and the trust setting). */
    v: (0 | 1 | null)[];
    harms: (HarmLevel | null)[];
    rationales: (string | null)[];
  };
}

type Pair = { verification: JudgeOutcome<VerificationJudgment>; harm: JudgeOutcome<HarmJudgment> };

async function judgeOnce(
  s: JudgeSettings,
  input: { question: string; segment: string; claim: string; excerpts: Excerpt[] },
  seed: number | undefined,
): Promise<Pair> {
  const call = {
    ...s.call,
    ...(seed === undefined ? {} : { seed }),
    ...(s.trustUnlocatedEvidence ? { trustUnlocatedEvidence: true } : {}),
    ...(s.locator ? { locator: s.locator } : {}),
  };
  if (s.mode === 'joint') {
    const joint = await judgeJointly(s.verifier, { ...input, rubric: s.rubric }, call);
    if (!joint.ok) return { verification: joint, harm: joint };
    return {
      verification: { ok: true, value: joint.value.verification },
      harm: { ok: true, value: joint.value.harm },
    };
  }
  const [verification, harm] = await Promise.all([
    verifyClaim(s.verifier, { claim: input.claim, excerpts: input.excerpts }, call),
    rateHarm(s.harmJudge, { ...input, rubric: s.rubric }, call),
  ]);
  return { verification, harm };
}

/**
 * Judges one claim `repeats` times. The claim's v is the majority verdict and its w the (upper)
 * median harm over the successful repeats; the rationale and evidence come from the first repeat
 * that agrees with the majority. The claim fails only when every repeat of a judge failed.
 */
export async function judgeClaim(
  s: JudgeSettings,
  index: number,
  input: { question: string; segment: string; claim: string; excerpts: Excerpt[] },
): Promise<ClaimResult> {
  const k = Math.max(1, s.repeats);
  const runs = await Promise.all(
    Array.from({ length: k }, (_, r) => judgeOnce(s, input, k > 1 ? r : undefined)),
  );
  const verifications = runs.map((r) => (r.verification.ok ? r.verification.value : null));
  const harms = runs.map((r) => (r.harm.ok ? r.harm.value : null));
  const v = majorityVerified(verifications.flatMap((x) => (x ? [x.v] : [])));
  const w = medianHarm(harms.flatMap((x) => (x ? [x.harm] : [])));
  const chosen = verifications.find((x) => x !== null && x.v === v) ?? null;
  const harmChosen = harms.find((x) => x !== null && x.harm === w) ?? null;
  const failures = runs.flatMap((r) => [r.verification, r.harm]).flatMap((o) => (o.ok ? [] : [o.reason]));
  const result: ClaimResult = {
    index,
    text: input.claim,
    status: v !== null && w !== null ? 'scored' : 'failed',
    v,
    w,
    verdict: chosen?.verdict ?? null,
    rationale: chosen?.rationale ?? null,
    harm_rationale: harmChosen?.rationale ?? null,
    evidence_quote: chosen?.evidenceQuote ?? null,
    span: chosen?.span ?? null,
    nearest: chosen?.nearest ?? null,
  };
  if (result.status === 'failed') result.failure = [...new Set(failures)].join('; ');
  if (k > 1) {
    result.repeats = {
      verdicts: verifications.map((x) => x?.verdict ?? null),
      v: verifications.map((x) => x?.v ?? null),
      harms: harms.map((x) => x?.harm ?? null),
      rationales: verifications.map((x) => x?.rationale ?? null),
    };
  }
  return result;
}

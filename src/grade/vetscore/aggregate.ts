import { CitegeistError } from '../../core/index.js';

/** The exponent VETSCORE uses for the harm weights (METHODS §3.4). */
export const DEFAULT_HARM_EXPONENT = 2.426;

export interface RiskWeightedClaim {
  verified: 0 | 1;
  harm: 1 | 2 | 3 | 4 | 5;
}

export interface RiskWeightedResult {
  /** `1 − P` over all claims of the answer; null when the answer has no claims (not applicable). */
  score: number | null;
  /** `P_s` per segment, in input order; null for a segment without claims. */
  segmentPenalties: (number | null)[];
}

/**
 * The risk-weighted aggregation of METHODS §3.4. With `ω_i = w_i^p`: segment penalty
 * `P_s = Σ_s ω_i (1 − v_i) / Σ_s ω_i`, global penalty `P` the same sum over all claims, and the
 * score `1 − P` (the share of total harm potential that is supported). `p = 0` is plain
 * supported-claim precision. Only scored claims belong here: failed judgments are left out by the
 * caller and reported as coverage.
 */
export function riskWeightedScore(
  segments: { claims: RiskWeightedClaim[] }[],
  options?: { p?: number },
): RiskWeightedResult {
  const p = options?.p ?? DEFAULT_HARM_EXPONENT;
  if (!Number.isFinite(p) || p < 0) {
    throw new CitegeistError(
      'BAD_OPTION',
      `The harm exponent p = ${p} is not a finite number ≥ 0.`,
      'Use p ≥ 0 (2.426 is the default; 0 gives plain precision).',
    );
  }
  let weight = 0;
  let unsupported = 0;
  const segmentPenalties = segments.map((segment) => {
    let sWeight = 0;
    let sUnsupported = 0;
    for (const claim of segment.claims) {
      checkClaim(claim);
      const omega = claim.harm ** p;
      sWeight += omega;
      sUnsupported += omega * (1 - claim.verified);
    }
    weight += sWeight;
    unsupported += sUnsupported;
    return segment.claims.length === 0 ? null : sUnsupported / sWeight;
  });
  return { score: weight === 0 ? null : 1 - unsupported / weight, segmentPenalties };
}

function checkClaim(claim: RiskWeightedClaim): void {
  if ((claim.verified !== 0 && claim.verified !== 1) || ![1, 2, 3, 4, 5].includes(claim.harm)) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `A claim has verified = ${String(claim.verified)}, harm = ${String(claim.harm)}.`,
      'verified must be 0 or 1 and harm an integer from 1 to 5.',
    );
  }
}

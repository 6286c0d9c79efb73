import type { HarmLevel } from './harm.js';

/**
 * The majority of repeated 0/1 verdicts; a tie counts as unsupported (0), the conservative choice
 * for a faithfulness score. Null when there is no verdict.
 */
export function majorityVerified(values: (0 | 1)[]): 0 | 1 | null {
  if (values.length === 0) return null;
  const ones = values.filter((v) => v === 1).length;
  return ones * 2 > values.length ? 1 : 0;
}

/** The median of repeated harm ratings; for an even count the upper median (the more cautious one). */
export function medianHarm(values: HarmLevel[]): HarmLevel | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/** Run-to-run agreement of repeated judgments over the claims judged successfully in every repeat. */
export interface RepeatAgreement {
  /** Claims whose K judgments all succeeded (the base of both figures). */
  claims: number;
  /** Share of those claims whose K values are identical; null when there are none. */
  identical: number | null;
  /** Mean over claims of the share of agreeing pairs among the K(K−1)/2 pairs; null when none. */
  meanPairwise: number | null;
}

/** Agreement of K repeated values per claim (`null` = that repeat failed; such claims are left out). */
export function repeatAgreement<T>(perClaim: (T | null)[][]): RepeatAgreement {
  let claims = 0;
  let identical = 0;
  let pairwise = 0;
  for (const values of perClaim) {
    if (values.length < 2 || values.some((v) => v === null)) continue;
    claims++;
    let agree = 0;
    let pairs = 0;
    for (let i = 0; i < values.length; i++) {
      for (let j = i + 1; j < values.length; j++) {
        pairs++;
        if (values[i] === values[j]) agree++;
      }
    }
    if (agree === pairs) identical++;
    pairwise += agree / pairs;
  }
  return claims === 0
    ? { claims, identical: null, meanPairwise: null }
    : { claims, identical: identical / claims, meanPairwise: pairwise / claims };
}

/** Pools per-answer agreements into one (each weighted by its number of claims). */
export function poolAgreement(parts: RepeatAgreement[]): RepeatAgreement {
  let claims = 0;
  let identical = 0;
  let pairwise = 0;
  for (const a of parts) {
    if (a.claims === 0 || a.identical === null || a.meanPairwise === null) continue;
    claims += a.claims;
    identical += a.identical * a.claims;
    pairwise += a.meanPairwise * a.claims;
  }
  return claims === 0
    ? { claims, identical: null, meanPairwise: null }
    : { claims, identical: identical / claims, meanPairwise: pairwise / claims };
}

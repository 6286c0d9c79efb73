/**
 * Category probabilities of the many-facet partial credit model: for an item with measure θ rated by
 * a rater with severity λ, with step thresholds δ_1..δ_m,
 *   P(X = k) ∝ exp(Σ_{j ≤ k} (θ − λ − δ_j)),  k = 0..m (the empty sum for k = 0 is 0).
 * Computed with the max subtracted, so extreme measures neither overflow nor underflow to NaN.
 * Writes into `out` (length m + 1) when given, to avoid allocation in the fitting loop.
 */
export function partialCreditProbabilities(
  theta: number,
  severity: number,
  thresholds: readonly number[],
  out: number[] = new Array<number>(thresholds.length + 1),
): number[] {
  const psi = theta - severity;
  out[0] = 0;
  let max = 0;
  for (let k = 1; k <= thresholds.length; k++) {
    out[k] = out[k - 1]! + psi - thresholds[k - 1]!;
    if (out[k]! > max) max = out[k]!;
  }
  let sum = 0;
  for (let k = 0; k <= thresholds.length; k++) {
    out[k] = Math.exp(out[k]! - max);
    sum += out[k]!;
  }
  for (let k = 0; k <= thresholds.length; k++) out[k] = out[k]! / sum;
  return out;
}

/** Expected score (in 0..m) under the model: Σ k P(X = k). */
export function partialCreditExpectedScore(
  theta: number,
  severity: number,
  thresholds: readonly number[],
): number {
  const p = partialCreditProbabilities(theta, severity, thresholds);
  let e = 0;
  for (let k = 1; k < p.length; k++) e += k * p[k]!;
  return e;
}

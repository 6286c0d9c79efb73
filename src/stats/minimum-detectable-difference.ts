import { normalQuantile } from './normal-distribution.js';

/**
 * The smallest true mean difference a two-sided paired test at level `alpha` detects with
 * probability `power`, from the spread of the differences (normal approximation; Cohen 1988 §2.4):
 *
 *   MDD = (z_{1−α/2} + z_{power}) · sd(d) / √n
 *
 * With α = 0.05 and power 0.8 the factor is 1.95996 + 0.84162 = 2.80159. Null for n < 2 (no spread
 * to estimate); 0 when the differences do not vary (any difference would then be seen).
 */
export function minimumDetectableDifference(
  sd: number | null,
  n: number,
  alpha = 0.05,
  power = 0.8,
): number | null {
  if (sd === null || n < 2) return null;
  return ((normalQuantile(1 - alpha / 2) + normalQuantile(power)) * sd) / Math.sqrt(n);
}

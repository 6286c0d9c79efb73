import { quantileSorted } from './descriptive.js';
import { normalCdf, normalQuantile } from './normal-distribution.js';

/**
 * Bias-corrected and accelerated (BCa) bootstrap bounds (Efron & Tibshirani 1993, §14.3, eq. 14.15
 * and §15.4, eq. 15.36), computed as SciPy's `bootstrap(method='BCa')` does: the bias correction
 * z₀ = Φ⁻¹(share of replicates below the estimate, ties counted half), the acceleration
 * â = Σ U³ / (6 (Σ U²)^{3/2}) from the jackknife influence values U_i = (n − 1)(θ̄₍.₎ − θ₍ᵢ₎),
 * and the bounds at the replicate quantiles Φ(z₀ + (z₀ + z_α) / (1 − â (z₀ + z_α))) for
 * α = (1 − c)/2 and 1 − α (linear interpolation, NumPy's default).
 *
 * `sorted` holds the bootstrap replicates in ascending order. Null when the interval is undefined:
 * no replicates, every replicate on one side of the estimate (z₀ infinite), or no jackknife spread
 * (Σ U² = 0: a constant sample, where SciPy returns NaN).
 */
export function bcaBounds(
  sorted: ArrayLike<number>,
  estimate: number,
  influence: ArrayLike<number>,
  confidence: number,
): [number, number] | null {
  const b = sorted.length;
  if (b === 0) return null;
  let below = 0;
  let atOrBelow = 0;
  for (let i = 0; i < b; i++) {
    if (sorted[i]! < estimate) below++;
    if (sorted[i]! <= estimate) atOrBelow++;
  }
  const z0 = normalQuantile((below + atOrBelow) / (2 * b));
  let num = 0;
  let den = 0;
  for (let i = 0; i < influence.length; i++) {
    const u = influence[i]!;
    num += u * u * u;
    den += u * u;
  }
  if (!Number.isFinite(z0) || den === 0) return null;
  const n = influence.length;
  // SciPy scales the sums by n³ and n²; the ratio is the same, the rounding too up to the last bits.
  const a = ((1 / 6) * (num / n ** 3)) / (den / n ** 2) ** 1.5;
  const zAlpha = normalQuantile((1 - confidence) / 2);
  const level = (z: number) => normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
  const lo = level(zAlpha);
  const hi = level(-zAlpha);
  if (!(lo >= 0 && lo <= 1 && hi >= 0 && hi <= 1)) return null;
  const values = Array.from(sorted);
  return [quantileSorted(values, lo), quantileSorted(values, hi)];
}

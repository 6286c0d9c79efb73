/**
 * Exact samplers built on a seeded uniform source: standard normal (Marsaglia's polar method), gamma
 * (Marsaglia & Tsang 2000), and binomial by recursive splitting at a beta-distributed order statistic
 * (Devroye 1986, §X.4; Knuth, TAOCP vol. 2, §3.4.1), which needs O(log n) gamma draws instead of n
 * uniforms. They let the mean bootstrap of a sample with few distinct values draw each resample's
 * multinomial counts directly.
 */
import type { RandomSource } from './random.js';

/** A standard normal variate (polar method; one of the pair is discarded to stay stateless). */
export function normalVariate(random: RandomSource): number {
  for (;;) {
    const u = 2 * random() - 1;
    const v = 2 * random() - 1;
    const s = u * u + v * v;
    if (s > 0 && s < 1) return u * Math.sqrt((-2 * Math.log(s)) / s);
  }
}

/** A Gamma(shape, 1) variate, shape > 0 (Marsaglia–Tsang; shape < 1 by the U^(1/shape) boost). */
export function gammaVariate(random: RandomSource, shape: number): number {
  if (shape < 1) return gammaVariate(random, shape + 1) * (1 - random()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normalVariate(random);
    const t = 1 + c * x;
    if (t <= 0) continue;
    const v = t * t * t;
    const u = 1 - random(); // in (0, 1]
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Below this many trials the binomial is drawn by inversion of its CDF. */
const DIRECT_TRIALS = 32;

/**
 * A Binomial(n, p) variate, exactly distributed (up to floating point). While n is large, the
 * a-th smallest of n uniforms, a = 1 + ⌊n/2⌋, is Beta(a, n + 1 − a); the count below p is then a
 * binomial on the a − 1 uniforms below it (if it is above p) or a plus one on the n − a above it.
 */
export function binomialVariate(random: RandomSource, trials: number, p: number): number {
  let n = trials;
  let q = p;
  let count = 0;
  while (n > DIRECT_TRIALS) {
    if (q <= 0) return count;
    if (q >= 1) return count + n;
    const a = 1 + Math.floor(n / 2);
    const b = n + 1 - a;
    const ga = gammaVariate(random, a);
    const x = ga / (ga + gammaVariate(random, b));
    if (x >= q) {
      n = a - 1;
      q /= x;
    } else {
      count += a;
      n = b - 1;
      q = (q - x) / (1 - x);
    }
  }
  if (q <= 0) return count;
  if (q >= 1) return count + n;
  // Inversion: walk the CDF from 0 with the pmf recurrence.
  const odds = q / (1 - q);
  let pmf = (1 - q) ** n;
  let u = random();
  for (let k = 0; k < n; k++) {
    if (u < pmf) return count + k;
    u -= pmf;
    pmf *= (odds * (n - k)) / (k + 1);
  }
  return count + n;
}

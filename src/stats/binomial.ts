/**
 * Exact samplers built on a seeded uniform source: standard normal (Marsaglia's polar method), gamma
 * (Marsaglia & Tsang 2000), and binomial by BTPE or inversion (Kachitvichyanukul & Schmeiser 1988),
 * a few uniforms per draw whatever the number of trials. They let the mean bootstrap of a sample
 * with few distinct values draw each resample's multinomial counts directly, and the randomization
 * test draw how many of each |difference| flip sign.
 */
import { binomialBtpe } from './binomial-btpe.js';
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

/** From this many expected successes (and failures) on, BTPE draws the binomial. */
const BTPE_MIN = 30;

/**
 * A Binomial(n, p) variate, exactly distributed (up to floating point): BTPE when
 * n·min(p, 1 − p) ≥ 30 (`binomialBtpe`, a few uniforms per draw), else inversion of the CDF from 0
 * on the rarer side (fewer than 30 expected steps), as NumPy chooses.
 */
export function binomialVariate(random: RandomSource, trials: number, p: number): number {
  if (p <= 0 || trials === 0) return 0;
  if (p >= 1) return trials;
  const q = Math.min(p, 1 - p);
  if (trials * q >= BTPE_MIN) return binomialBtpe(random, trials, p);
  const k = invert(random, trials, q);
  return p > 0.5 ? trials - k : k;
}

/** Inversion: walk the CDF of Binomial(n, q) from 0 with the pmf recurrence. */
function invert(random: RandomSource, n: number, q: number): number {
  const odds = q / (1 - q);
  let pmf = (1 - q) ** n;
  let u = random();
  for (let k = 0; k < n; k++) {
    if (u < pmf) return k;
    u -= pmf;
    pmf *= (odds * (n - k)) / (k + 1);
  }
  return n;
}

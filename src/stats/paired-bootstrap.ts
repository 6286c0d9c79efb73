import { bcaBounds } from './bca-interval.js';
import { meanResampler } from './bootstrap.js';
import { quantileSorted } from './descriptive.js';
import { type PairedDifferences, pairedDifferences } from './paired-differences.js';
import { createRandom } from './random.js';
import { assertOption, assertPaired, assertResampling } from './validate.js';

export interface PairedBootstrapOptions {
  /** Resamples; default 10,000. */
  iterations?: number;
  /** Coverage in (0, 1); default 0.95. */
  confidence?: number;
  /** mulberry32 seed; default 0. */
  seed?: number;
}

/** The mean difference a − b over paired items with its bootstrap intervals. */
export interface PairedBootstrapResult {
  n: number;
  /** mean(a − b); null for n = 0. */
  estimate: number | null;
  /** Percentile interval (the one `bootstrapCI` gives on the differences). */
  percentile: [number, number] | null;
  /** BCa interval from the same replicates; null where undefined (see `bcaBounds`). */
  bca: [number, number] | null;
  /**
   * Two-sided bootstrap p-value of "no difference": 2 · min(share of replicates ≤ 0, share ≥ 0),
   * capped at 1 (the percentile interval inverted); null for n = 0.
   */
  p: number | null;
  confidence: number;
  iterations: number;
  seed: number;
}

/**
 * Paired bootstrap of the mean difference: items are resampled with replacement, each keeping its
 * pair (so this is the bootstrap of the mean of d = a − b), `iterations` times from `seed`. The
 * percentile bounds are those of `bootstrapCI(d)` (same draws); the BCa bounds use the same
 * replicates and the jackknife of the mean, whose influence values are d_i − mean(d).
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: PairedBootstrapOptions = {},
): PairedBootstrapResult {
  assertPaired('pairedBootstrap', a, b, ['a', 'b']);
  return bootstrapDifferences(pairedDifferences(a, b), options);
}

/** `pairedBootstrap` of differences already computed (`comparePairedItems` computes them once). */
export function bootstrapDifferences(
  diffs: PairedDifferences,
  options: PairedBootstrapOptions = {},
): PairedBootstrapResult {
  const fn = 'pairedBootstrap';
  const { iterations = 10_000, confidence = 0.95, seed = 0 } = options;
  assertResampling(fn, iterations, seed);
  assertOption(fn, 'confidence', confidence, confidence > 0 && confidence < 1, 'a number in (0, 1)');
  const { d, n, mean: estimate } = diffs;
  const base = { n, estimate, confidence, iterations, seed };
  if (estimate === null) return { ...base, percentile: null, bca: null, p: null };
  const draw = meanResampler(d, diffs.levels);
  const random = createRandom(seed);
  const replicates = new Float64Array(iterations);
  let le = 0;
  let ge = 0;
  for (let i = 0; i < iterations; i++) {
    const r = draw(random);
    replicates[i] = r;
    if (r <= 0) le++;
    if (r >= 0) ge++;
  }
  replicates.sort();
  const tail = (1 - confidence) / 2;
  const sorted = replicates as unknown as readonly number[];
  const percentile: [number, number] = [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)];
  const p = Math.min(1, (2 * Math.min(le, ge)) / iterations);
  if (n < 2) return { ...base, percentile, bca: null, p };
  const influence = new Float64Array(n);
  for (let i = 0; i < n; i++) influence[i] = d[i]! - estimate;
  return { ...base, percentile, bca: bcaBounds(replicates, estimate, influence, confidence), p };
}

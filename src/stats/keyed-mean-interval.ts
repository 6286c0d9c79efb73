import { type BootstrapInterval, type BootstrapOptions, bootstrapCI } from './bootstrap.js';
import { assertFiniteArray } from './validate.js';

/** Resamples of a per-file summary interval unless a caller states others. */
export const SUMMARY_ITERATIONS = 2000;

/**
 * The mean of per-item values with its percentile bootstrap interval, computed from the items in
 * one canonical order: by item key (UTF-16 code-unit order, the same in every locale), so the figure
 * depends only on the items and the seed, never on the order a file was written or read in. A
 * bootstrap draws indices, so the same values in another order give another interval (and a
 * compensated sum in another order can differ in the last bit): every command that shows a per-file
 * mean and interval calls this one function, so `grade`, `leaderboard`, `report` and a summary file
 * print the same bytes. Keys must be distinct within one call; equal keys keep their given order.
 */
export function keyedMeanInterval(
  keys: readonly string[],
  values: readonly number[],
  options: BootstrapOptions = {},
): BootstrapInterval {
  assertFiniteArray('keyedMeanInterval', 'values', values);
  const order = canonicalOrder(keys);
  const sorted = order.map((i) => values[i]!);
  return bootstrapCI(sorted, undefined, { iterations: SUMMARY_ITERATIONS, ...options });
}

/** Indices of `keys` in canonical (code-unit) order; stable for equal keys. */
export function canonicalOrder(keys: readonly string[]): number[] {
  const idx = keys.map((_, i) => i);
  return idx.sort((a, b) => {
    const ka = keys[a]!;
    const kb = keys[b]!;
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
}

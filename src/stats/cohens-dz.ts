import { type PairedDifferences, pairedDifferences } from './paired-differences.js';
import { assertPaired } from './validate.js';

/**
 * Cohen's d_z, the standardized mean difference of paired samples: mean(d) / sd(d) with d = a − b
 * and sd with n − 1 (Cohen 1988; Lakens 2013, eq. 6). Null when it is undefined: fewer than two
 * pairs, or no spread in the differences (every d_i equal: a division by zero, reported as null).
 */
export function cohensDz(a: readonly number[], b: readonly number[]): number | null {
  assertPaired('cohensDz', a, b, ['a', 'b']);
  return dzOfDifferences(pairedDifferences(a, b));
}

/** `cohensDz` of differences already computed. */
export function dzOfDifferences(diffs: PairedDifferences): number | null {
  return diffs.sd === null || diffs.sd === 0 ? null : diffs.mean! / diffs.sd;
}

/** The sample standard deviation (n − 1) of d = a − b; null for fewer than two pairs. */
export function differenceSd(a: readonly number[], b: readonly number[]): number | null {
  return pairedDifferences(a, b).sd;
}

import { meanUnchecked } from './descriptive.js';
import { assertPaired } from './validate.js';

/**
 * Cohen's d_z, the standardized mean difference of paired samples: mean(d) / sd(d) with d = a − b
 * and sd with n − 1 (Cohen 1988; Lakens 2013, eq. 6). Null when it is undefined: fewer than two
 * pairs, or no spread in the differences (every d_i equal: a division by zero, reported as null).
 */
export function cohensDz(a: readonly number[], b: readonly number[]): number | null {
  assertPaired('cohensDz', a, b, ['a', 'b']);
  const sd = differenceSd(a, b);
  if (sd === null || sd === 0) return null;
  return meanUnchecked(a.map((v, i) => v - b[i]!))! / sd;
}

/** The sample standard deviation (n − 1) of d = a − b; null for fewer than two pairs. */
export function differenceSd(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  if (n < 2) return null;
  const d = a.map((v, i) => v - b[i]!);
  const m = meanUnchecked(d)!;
  let ss = 0;
  for (const x of d) ss += (x - m) * (x - m);
  return Math.sqrt(ss / (n - 1));
}

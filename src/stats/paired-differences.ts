import { meanUnchecked } from './descriptive.js';

/** Distinct values of a sample (ascending) and how often each occurs. */
export interface Levels {
  values: Float64Array;
  counts: Float64Array;
}

/**
 * The differences d = a − b of paired items, computed once with everything a comparison reads from
 * them (one pass each, typed arrays): the bootstrap, the randomization test, d_z, the MDD and the
 * win/tie/loss counts of `comparePairedItems` all take this instead of each recomputing d.
 */
export interface PairedDifferences {
  d: Float64Array;
  n: number;
  /** Compensated mean of d (as `meanUnchecked`); null for n = 0. */
  mean: number | null;
  /** sd of d with n − 1; null for n < 2. */
  sd: number | null;
  wins: number;
  losses: number;
  /** Every d_i is the same value. */
  zeroVariance: boolean;
  /** Levels of d and of |d| when at most n / 200 (`fewLevels`), else null. */
  levels: Levels | null;
  absLevels: Levels | null;
}

/** Differences of two finite paired samples (checked by the caller). */
export function pairedDifferences(a: ArrayLike<number>, b: ArrayLike<number>): PairedDifferences {
  const n = a.length;
  const d = new Float64Array(n);
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    d[i] = x - y;
    if (x > y) wins++;
    else if (x < y) losses++;
  }
  return differencesSummary(d, wins, losses, meanUnchecked(d));
}

/**
 * The rest of `PairedDifferences` from d, its win/loss counts and its mean (`meanUnchecked(d)`):
 * shared with `alignedDifferences`, which computes d and the mean in its pairing pass.
 */
export function differencesSummary(
  d: Float64Array,
  wins: number,
  losses: number,
  mean: number | null,
): PairedDifferences {
  const n = d.length;
  let sd: number | null = null;
  let zeroVariance = n > 0;
  if (mean !== null) {
    let ss = 0;
    for (let i = 0; i < n; i++) {
      ss += (d[i]! - mean) * (d[i]! - mean);
      if (d[i] !== d[0]) zeroVariance = false;
    }
    if (n >= 2) sd = Math.sqrt(ss / (n - 1));
  }
  const levels = fewLevels(d);
  // |d| can take few values where d does not (±v merge): then counted on its own, as the test did.
  const absLevels = levels ? absoluteLevels(levels) : fewLevels(Float64Array.from(d, Math.abs));
  return { d, n, mean, sd, wins, losses, zeroVariance, levels, absLevels };
}

/** Samples this large with at most n / LEVEL_RATIO distinct values are resampled by their counts. */
const LEVEL_RATIO = 200;

/** The distinct values of a sample (ascending) and how often each occurs, when they are few. */
export function fewLevels(samples: ArrayLike<number>): Levels | null {
  const limit = Math.floor(samples.length / LEVEL_RATIO);
  if (limit < 2) return null;
  const counts = new Map<number, number>();
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]!;
    counts.set(x, (counts.get(x) ?? 0) + 1);
    if (counts.size > limit) return null;
  }
  const values = Float64Array.from(counts.keys()).sort();
  return { values, counts: values.map((v) => counts.get(v)!) };
}

/** The levels of |d| from those of d (the same as `fewLevels` of |d|). */
function absoluteLevels(levels: Levels): Levels {
  const counts = new Map<number, number>();
  levels.values.forEach((v, j) => {
    const key = Math.abs(v);
    counts.set(key, (counts.get(key) ?? 0) + levels.counts[j]!);
  });
  const values = Float64Array.from(counts.keys()).sort();
  return { values, counts: values.map((v) => counts.get(v)!) };
}

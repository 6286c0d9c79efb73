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

/**
 * The distinct values of a sample (ascending) and how often each occurs, when they are few. Counted
 * in a small open-addressing table keyed by the value's bits (−0 counted as 0, as a Map would):
 * a table of 225 comparisons of 50,000 items counts 11 million values, and a Map spent about 8% of
 * its time on them.
 */
export function fewLevels(samples: ArrayLike<number>): Levels | null {
  const limit = Math.floor(samples.length / LEVEL_RATIO);
  if (limit < 2) return null;
  let size = 4;
  while (size < 2 * (limit + 1)) size *= 2;
  const mask = size - 1;
  const keys = new Float64Array(size);
  const counts = new Float64Array(size);
  const used = new Uint8Array(size);
  const bits = scratch;
  let distinct = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]! === 0 ? 0 : samples[i]!;
    bits.f[0] = x;
    let h = Math.imul(bits.u[0]! ^ Math.imul(bits.u[1]!, 0x9e3779b1), 0x85ebca6b);
    h = (h ^ (h >>> 15)) & mask;
    while (used[h] && keys[h] !== x) h = (h + 1) & mask;
    if (!used[h]) {
      if (++distinct > limit) return null;
      used[h] = 1;
      keys[h] = x;
    }
    counts[h] = counts[h]! + 1;
  }
  const slots: number[] = [];
  for (let h = 0; h < size; h++) if (used[h]) slots.push(h);
  slots.sort((a, b) => keys[a]! - keys[b]!);
  return {
    values: Float64Array.from(slots, (h) => keys[h]!),
    counts: Float64Array.from(slots, (h) => counts[h]!),
  };
}

/** A double and its two 32-bit words, for hashing a value by its bits. */
const scratch = (() => {
  const f = new Float64Array(1);
  return { f, u: new Uint32Array(f.buffer) };
})();

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

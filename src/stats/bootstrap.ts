import { CitegeistError } from '../core/index.js';
import { binomialVariate } from './binomial.js';
import { meanUnchecked, quantileSorted } from './descriptive.js';
import { fewLevels, type Levels } from './paired-differences.js';
import { createRandom, type RandomSource, randomInt } from './random.js';
import { assertFiniteArray, assertOption, assertPaired, assertResampling } from './validate.js';

export interface BootstrapOptions {
  /** Number of resamples; default 10,000. */
  iterations?: number;
  /** Coverage of the interval in (0, 1); default 0.95. */
  confidence?: number;
  /** PRNG seed (mulberry32); default 0, so that a result is reproducible even when none is given. */
  seed?: number;
}

/** A percentile bootstrap confidence interval. */
export interface BootstrapInterval {
  /** The statistic on the original sample; null when it is not applicable there (e.g. empty sample). */
  estimate: number | null;
  /** Lower and upper percentile bounds; null when the estimate is null or no resample was defined. */
  lower: number | null;
  upper: number | null;
  confidence: number;
  iterations: number;
  seed: number;
  /** Resamples on which the statistic was not applicable (returned null), left out of the percentiles. */
  undefinedResamples: number;
}

/** A statistic of one sample: a number, or null where it is not applicable. */
export type SampleStatistic = (sample: readonly number[]) => number | null;
/** A statistic of paired samples, e.g. `spearman`. */
export type PairedStatistic = (x: readonly number[], y: readonly number[]) => number | null;

/**
 * Percentile bootstrap CI (Efron): resample `samples` with replacement `iterations` times, compute
 * the statistic (default: mean) on each, and take the (1−c)/2 and (1+c)/2 quantiles of the resampled
 * values (linear interpolation, NumPy's default). Deterministic for a seed.
 */
export function bootstrapCI(
  samples: readonly number[],
  statistic: SampleStatistic = meanUnchecked,
  options: BootstrapOptions = {},
): BootstrapInterval {
  assertFiniteArray('bootstrapCI', 'samples', samples);
  const n = samples.length;
  if (statistic === meanUnchecked) {
    return runBootstrap('bootstrapCI', options, meanUnchecked(samples), meanResampler(samples));
  }
  const resample = new Array<number>(n);
  return runBootstrap('bootstrapCI', options, statistic(samples), (random) => {
    for (let i = 0; i < n; i++) resample[i] = samples[randomInt(random, n)]!;
    return statistic(resample);
  });
}

/**
 * A draw of the mean of one bootstrap resample of `samples` (finite, checked by the caller): the
 * draw `bootstrapCI` makes for the mean, shared with the paired comparison so both give the same
 * replicates for a seed.
 */
export function meanResampler(
  samples: ArrayLike<number>,
  few: Levels | null = fewLevels(samples),
): (random: RandomSource) => number {
  const n = samples.length;
  if (few) {
    // A resample of a sample with k distinct values is fully described by how often each value
    // is drawn: multinomial counts, drawn as k − 1 conditional binomials in O(k log n) instead
    // of n draws. The same bootstrap distribution (not the same random stream as n draws).
    const { values, counts } = few;
    return (random) => {
      let remaining = n;
      let remainingWeight = n;
      let sum = 0;
      let c = 0;
      for (let j = 0; j < values.length; j++) {
        const drawn =
          j === values.length - 1
            ? remaining
            : binomialVariate(random, remaining, counts[j]! / remainingWeight);
        remaining -= drawn;
        remainingWeight -= counts[j]!;
        const y = values[j]! * drawn - c;
        const t = sum + y;
        c = t - sum - y;
        sum = t;
      }
      return sum / n;
    };
  }
  // The mean without materialising each resample: the same draws, summed in the same order with
  // the same compensated summation as meanUnchecked, so the same values, several times faster.
  const values = Float64Array.from(samples);
  return (random) => {
    let sum = 0;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const y = values[randomInt(random, n)]! - c;
      const t = sum + y;
      c = t - sum - y;
      sum = t;
    }
    return sum / n;
  };
}

/**
 * Percentile bootstrap CI for a statistic of pairs (e.g. a correlation): resamples indices, so
 * each (x[i], y[i]) pair stays together.
 */
export function bootstrapPairedCI(
  x: readonly number[],
  y: readonly number[],
  statistic: PairedStatistic,
  options: BootstrapOptions = {},
): BootstrapInterval {
  assertPaired('bootstrapPairedCI', x, y);
  const n = x.length;
  const rx = new Array<number>(n);
  const ry = new Array<number>(n);
  return runBootstrap('bootstrapPairedCI', options, statistic(x, y), (random) => {
    for (let i = 0; i < n; i++) {
      const k = randomInt(random, n);
      rx[i] = x[k]!;
      ry[i] = y[k]!;
    }
    return statistic(rx, ry);
  });
}

function runBootstrap(
  fn: string,
  options: BootstrapOptions,
  estimate: number | null,
  draw: (random: RandomSource) => number | null,
): BootstrapInterval {
  const { iterations = 10_000, confidence = 0.95, seed = 0 } = options;
  assertResampling(fn, iterations, seed);
  assertOption(fn, 'confidence', confidence, confidence > 0 && confidence < 1, 'a number in (0, 1)');
  checkStatistic(fn, estimate);
  const base = { estimate, confidence, iterations, seed };
  if (estimate === null) return { ...base, lower: null, upper: null, undefinedResamples: 0 };
  const random = createRandom(seed);
  const values: number[] = [];
  for (let b = 0; b < iterations; b++) {
    const value = draw(random);
    checkStatistic(fn, value);
    if (value !== null) values.push(value);
  }
  const undefinedResamples = iterations - values.length;
  if (values.length === 0) return { ...base, lower: null, upper: null, undefinedResamples };
  values.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return {
    ...base,
    lower: quantileSorted(values, tail),
    upper: quantileSorted(values, 1 - tail),
    undefinedResamples,
  };
}

function checkStatistic(fn: string, value: number | null): void {
  if (value !== null && !Number.isFinite(value)) {
    throw new CitegeistError(
      'STATS_STATISTIC_NOT_FINITE',
      `${fn}: the statistic returned ${value}; it must return a finite number or null (not applicable).`,
      'Make the statistic return null where it is undefined instead of NaN or Infinity.',
    );
  }
}

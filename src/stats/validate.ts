import { CitegeistError, quoteValue } from '../core/index.js';

/**
 * Input checks shared by the statistics functions. Every function in `stats/` refuses NaN and
 * ±Infinity instead of propagating them: a NaN in a score column is a bug upstream, and a
 * correlation silently computed over it would hide that bug.
 */
export function assertFiniteArray(fn: string, name: string, values: readonly number[]): void {
  if (!Array.isArray(values)) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `${fn}: argument "${name}" must be an array of numbers, got ${quoteValue(values)}.`,
      'Pass an array of finite numbers.',
    );
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `${fn}: argument "${name}" holds ${describe(v)} at index ${i}; only finite numbers are allowed.`,
        'Remove or impute missing/undefined values before calling; statistics never guess them.',
      );
    }
  }
}

/** Checks both arrays and that they pair up one to one. */
export function assertPaired(
  fn: string,
  x: readonly number[],
  y: readonly number[],
  names = ['x', 'y'],
): void {
  const [nx = 'x', ny = 'y'] = names;
  assertFiniteArray(fn, nx, x);
  assertFiniteArray(fn, ny, y);
  if (x.length !== y.length) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `${fn}: "${nx}" has ${x.length} values but "${ny}" has ${y.length}; paired statistics need equal lengths.`,
      'Align the two samples so that index i of each refers to the same item.',
    );
  }
}

/** Checks a numeric option such as `iterations` or `confidence`. */
export function assertOption(fn: string, name: string, value: number, ok: boolean, expected: string): void {
  if (!ok || typeof value !== 'number' || Number.isNaN(value)) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `${fn}: option "${name}" is ${quoteValue(value)}; it must be ${expected}.`,
      `Pass ${name} as ${expected}.`,
    );
  }
}

/** Checks the options every resampling method takes: `iterations` (an integer ≥ 1) and `seed`. */
export function assertResampling(fn: string, iterations: number, seed: number): void {
  assertOption(
    fn,
    'iterations',
    iterations,
    Number.isInteger(iterations) && iterations >= 1,
    'an integer ≥ 1',
  );
  assertOption(fn, 'seed', seed, Number.isInteger(seed), 'an integer');
}

function describe(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (v === undefined) return 'undefined';
  return `${quoteValue(v)} (${v === null ? 'null' : typeof v})`;
}

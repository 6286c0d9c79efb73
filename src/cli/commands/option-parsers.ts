import { InvalidArgumentError } from 'commander';
import { CitegeistError } from '../../core/index.js';

/** A repeatable option's accumulator (`--measure a --measure b` → ['a', 'b']). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** An integer option, at least `min` when given (e.g. `parseIntOption('--threads', 1)`). */
export function parseIntOption(name: string, min?: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value) || (min !== undefined && Number(value) < min)) {
      const wanted = min === undefined ? 'an integer' : `an integer of at least ${min}`;
      throw new CitegeistError(
        'BAD_OPTION',
        `${name} must be ${wanted}, got "${value}".`,
        `Pass e.g. ${name} ${Math.max(1, min ?? 1)}.`,
      );
    }
    return Number(value);
  };
}

/** A number option of at least `min` (an integer when `integer`); commander reports a bad value. */
export function parseNumberOption(name: string, min: number, integer: boolean) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
      throw new InvalidArgumentError(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}.`);
    }
    return n;
  };
}

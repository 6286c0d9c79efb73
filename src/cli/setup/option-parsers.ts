import { CitegeistError, quoteValue } from '../../core/index.js';

/** A repeatable option's accumulator (`--measure a --measure b` → ['a', 'b']). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** What a numeric flag accepts. Integers are safe integers (so `99999999999999999999999` is refused). */
export interface NumberRule {
  integer?: boolean;
  min?: number;
  max?: number;
  /** The value the fix line suggests (default: the minimum, else 1 or 0.5): a sensible one, not "--port 1". */
  example?: number;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The one parser of numeric flags: every `--limit`, `-k`, `--seed`, `--concurrency`, `--budget` …
 * goes through it, so `abc`, `''`, `1.5` for a count, `-1` below a minimum, `1e999` and `0x10` are
 * refused alike with a BAD_OPTION naming the flag, the value and what it takes.
 */
export function parseNumberFlag(name: string, value: string, rule: NumberRule = {}): number {
  const text = value.trim();
  const n = Number(text);
  const ok =
    (rule.integer
      ? INTEGER.test(text) && Number.isSafeInteger(n)
      : DECIMAL.test(text) && Number.isFinite(n)) &&
    (rule.min === undefined || n >= rule.min) &&
    (rule.max === undefined || n <= rule.max);
  if (ok) return n;
  const kind = rule.integer ? 'a whole number' : 'a number';
  const range = [
    rule.min === undefined ? '' : `at least ${rule.min}`,
    rule.max === undefined ? '' : `at most ${rule.max}`,
  ].filter(Boolean);
  const example =
    rule.example ?? (rule.min !== undefined && rule.min > 0 ? rule.min : rule.integer ? 1 : 0.5);
  throw new CitegeistError(
    'BAD_OPTION',
    `${name} must be ${kind}${range.length > 0 ? ` ${range.join(' and ')}` : ''}, got ${quoteValue(value)}.`,
    `Pass e.g. ${name} ${Math.min(example, rule.max ?? example)}.`,
  );
}

/** A commander argument parser for a numeric flag (see `parseNumberFlag`). */
export function numberOption(name: string, rule: NumberRule = {}) {
  return (value: string): number => parseNumberFlag(name, value, rule);
}

/** An integer option, at least `min` when given (e.g. `parseIntOption('--threads', 1)`). */
export function parseIntOption(name: string, min?: number) {
  return numberOption(name, min === undefined ? { integer: true } : { integer: true, min });
}

/** Counts (`-k`, `--limit`, `--concurrency`): whole numbers of at least 1. */
export const countOption = (name: string) => numberOption(name, { integer: true, min: 1 });

/** Seeds: whole numbers of at least 0. */
export const seedOption = (name: string) => numberOption(name, { integer: true, min: 0 });

/** A commander parser for a flag that takes one of a few words; anything else is a BAD_OPTION. */
export function choiceOption<T extends string>(name: string, allowed: readonly T[]) {
  return (value: string): T => {
    if ((allowed as readonly string[]).includes(value)) return value as T;
    throw new CitegeistError(
      'BAD_OPTION',
      `${name} ${quoteValue(value)} is not one of ${allowed.join(', ')}.`,
      `Use e.g. ${name} ${allowed[0]}.`,
    );
  };
}

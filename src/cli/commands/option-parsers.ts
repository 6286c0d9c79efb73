import { CitegeistError } from '../../core/index.js';

/** A repeatable option's accumulator (`--measure a --measure b` → ['a', 'b']). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function parseIntOption(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) {
      throw new CitegeistError(
        'BAD_OPTION',
        `${name} must be an integer, got "${value}".`,
        `Pass e.g. ${name} 1.`,
      );
    }
    return Number(value);
  };
}

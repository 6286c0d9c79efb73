import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { parseQrels, parseRun, type Qrels, type Run, rollUpRun } from '../../retrieve/index.js';

function readText(cwd: string, file: string, what: string): string {
  const path = resolve(cwd, file);
  if (!existsSync(path)) {
    throw new CitegeistError('FILE_NOT_FOUND', `The ${what} file ${file} does not exist.`, 'Check the path.');
  }
  return readFileSync(path, 'utf8');
}

export function readQrels(cwd: string, file: string): Qrels {
  return parseQrels(readText(cwd, file, 'qrels'), file);
}

/** Reads a run; with `docLevel`, passage ids `<docId>#<n>` are rolled up to documents (max score). */
export function readRun(cwd: string, file: string, docLevel = false): Run {
  const run = parseRun(readText(cwd, file, 'run'), file);
  return docLevel ? rollUpRun(run) : run;
}

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

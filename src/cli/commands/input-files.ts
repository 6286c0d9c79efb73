import { resolve } from 'node:path';
import { CitegeistError, readTextFile } from '../../core/index.js';
import { parseQrels, parseRun, type Qrels, type Run, rollUpRun } from '../../retrieve/index.js';

/** Reads and parses a JSON file, naming the file and the parse error when it is not JSON. */
export function readJsonFile(path: string, what: string): unknown {
  const text = readTextFile(path, what);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CitegeistError(
      'INVALID_JSON',
      `The ${what} ${path} is not valid JSON (${(error as Error).message}).`,
      'Check that the file is complete JSON (JSONL files need the matching command or option).',
    );
  }
}

export function readQrels(cwd: string, file: string): Qrels {
  return parseQrels(readTextFile(resolve(cwd, file), 'qrels file'), file);
}

/** Reads a run; with `docLevel`, passage ids `<docId>#<n>` are rolled up to documents (max score). */
export function readRun(cwd: string, file: string, docLevel = false): Run {
  const run = parseRun(readTextFile(resolve(cwd, file), 'run file'), file);
  return docLevel ? rollUpRun(run) : run;
}

import { resolve } from 'node:path';
import { parseQrels, parseRun, type Qrels, type Run } from '../../formats/index.js';
import { readTextFile } from '../../io/index.js';
import { rollUpRun } from '../../retrieve/index.js';

export function readQrels(cwd: string, file: string): Qrels {
  return parseQrels(readTextFile(resolve(cwd, file), 'qrels file'), file);
}

/** Reads a run; with `docLevel`, passage ids `<docId>#<n>` are rolled up to documents (max score). */
export function readRun(cwd: string, file: string, docLevel = false): Run {
  const run = parseRun(readTextFile(resolve(cwd, file), 'run file'), file);
  return docLevel ? rollUpRun(run) : run;
}

import { CitegeistError, readTextFile } from '../../core/index.js';

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

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CitegeistError, hashItems, sha256Hex } from '../../core/index.js';

/**
 * The files of one human-judgment set, read once and hashed: the card's manifest names the set by
 * the hash of exactly the files its labels and inputs came from.
 */
export class SetFiles {
  private readonly hashes = new Map<string, string>();

  constructor(
    readonly dir: string,
    readonly set: string,
  ) {}

  /** The file's text (gunzipped when it ends in .gz); HUMAN_SET_MISSING when it is absent. */
  text(name: string): string {
    const path = join(this.dir, name);
    if (!existsSync(path)) {
      throw new CitegeistError(
        'HUMAN_SET_MISSING',
        `The ${this.set} set is not complete in ${this.dir}: ${name} is missing.`,
        'Pass --data with the folder holding the human-judgment sets (one sub-folder per set, as ../shared/data/human-labels).',
      );
    }
    const bytes = readFileSync(path);
    this.hashes.set(name, sha256Hex(bytes));
    return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  }

  /** JSON lines of a file, parsed; a bad line is an error naming the file and line. */
  jsonLines(name: string): unknown[] {
    return this.text(name)
      .split('\n')
      .flatMap((line, i) => {
        if (line.trim() === '') return [];
        try {
          return [JSON.parse(line) as unknown];
        } catch {
          throw new CitegeistError(
            'INVALID_INPUT',
            `${join(this.dir, name)} line ${i + 1} is not JSON.`,
            'The set file is damaged: get it again from the source its PROVENANCE names.',
          );
        }
      });
  }

  json(name: string): unknown {
    try {
      return JSON.parse(this.text(name)) as unknown;
    } catch (error) {
      if (error instanceof CitegeistError) throw error;
      throw new CitegeistError(
        'INVALID_INPUT',
        `${join(this.dir, name)} is not JSON.`,
        'The set file is damaged: get it again from the source its PROVENANCE names.',
      );
    }
  }

  /** One hash over every file read so far. */
  sha256(): string {
    return hashItems(this.hashes);
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CitegeistError, hashItems, sha256Hex } from '../../core/index.js';
import { parseJsonl } from '../../io/index.js';

/**
 * Set files already read, hashed, decoded and parsed, by path: a reproduction that reads a set once
 * per dimension shares one, so each file is read and gunzipped once. Parsed rows are shared, so
 * readers never change them.
 */
export type SetFileReads = Map<string, { sha256: string; text: string; lines?: unknown[]; json?: unknown }>;

/**
 * The files of one human-judgment set, read once and hashed: the card's manifest names the set by
 * the hash of exactly the files its labels and inputs came from.
 */
export class SetFiles {
  private readonly hashes = new Map<string, string>();

  constructor(
    readonly dir: string,
    readonly set: string,
    private readonly reads: SetFileReads = new Map(),
  ) {}

  /** The file's read, from `reads` when it was read before. */
  private read(name: string) {
    const path = join(this.dir, name);
    let read = this.reads.get(path);
    if (!read) {
      if (!existsSync(path)) {
        throw new CitegeistError(
          'HUMAN_SET_MISSING',
          `The ${this.set} set is not complete in ${this.dir}: ${name} is missing.`,
          'Pass --data with the folder holding the human-judgment sets (one sub-folder per set, as ../shared/data/human-labels).',
        );
      }
      const bytes = readFileSync(path);
      read = {
        sha256: sha256Hex(bytes),
        text: (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'),
      };
      this.reads.set(path, read);
    }
    this.hashes.set(name, read.sha256);
    return read;
  }

  /** The file's text (gunzipped when it ends in .gz); HUMAN_SET_MISSING when it is absent. */
  text(name: string): string {
    return this.read(name).text;
  }

  /** JSON lines of a file, parsed; a bad line is an error naming the file and line. */
  jsonLines(name: string): unknown[] {
    const read = this.read(name);
    read.lines ??= parseJsonl(read.text).map((line) => {
      if (line.ok) return line.value;
      throw new CitegeistError(
        'INVALID_INPUT',
        `${join(this.dir, name)} line ${line.line} is not JSON.`,
        'The set file is damaged: get it again from the source its PROVENANCE names.',
      );
    });
    return read.lines;
  }

  json(name: string): unknown {
    const read = this.read(name);
    if (!('json' in read)) {
      try {
        read.json = JSON.parse(read.text) as unknown;
      } catch {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${join(this.dir, name)} is not JSON.`,
          'The set file is damaged: get it again from the source its PROVENANCE names.',
        );
      }
    }
    return read.json;
  }

  /** One hash over every file read so far. */
  sha256(): string {
    return hashItems(this.hashes);
  }
}

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeAll } from './atomic-write.js';
import { readTextFile } from './read-input.js';

/**
 * Appends rows to a JSONL file as they complete, fsyncing each one so that a killed run loses at
 * most the row being written. A torn last line (from a crash mid-write) is terminated, so the next
 * row starts on its own line; files that must hold one run use `RunFile`, which removes it instead.
 */
export class JsonlAppender {
  private fd: number;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    // A crash can leave a partial last line; terminate it so the next row starts on its own line.
    if (existsSync(path)) {
      const text = readTextFile(path, 'file being resumed', { output: true });
      this.fd = openSync(path, 'a');
      if (text.length > 0 && !text.endsWith('\n')) writeSync(this.fd, '\n');
    } else {
      this.fd = openSync(path, 'a');
    }
  }

  append(row: unknown): void {
    this.appendText(JSON.stringify(row));
  }

  /** Appends one already-serialised line (for writers with their own JSON style). */
  appendText(line: string): void {
    writeAll(this.fd, `${line}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { readTextFile } from './read-input.js';

/**
 * Appends rows to a JSONL file as they complete, fsyncing each one so that a killed run loses at
 * most the row being written. A torn last line (from a crash mid-write) is ignored by `readJsonlIds`
 * and overwritten on resume.
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
    writeSync(this.fd, `${JSON.stringify(row)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * The values of `field` in the parseable rows of an existing JSONL file (for resuming a run without
 * duplicating rows). Missing file → empty set.
 */
export function readJsonlIds(
  path: string,
  field: string,
  accept?: (row: Record<string, unknown>) => boolean,
) {
  const ids = new Set<string>();
  if (!existsSync(path)) return ids;
  for (const line of readTextFile(path, 'file being resumed', { output: true }).split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as Record<string, unknown>;
      const id = row[field];
      if (typeof id === 'string' && (!accept || accept(row))) ids.add(id);
    } catch {
      // a torn line from an interrupted run: its row will be redone
    }
  }
  return ids;
}

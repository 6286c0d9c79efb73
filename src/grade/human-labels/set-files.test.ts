import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SetFileReads, SetFiles } from './set-files.js';

describe('SetFiles: shared reads', () => {
  it('a second reader sharing the reads neither reads the file again nor parses it again, and hashes the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'set-files-'));
    writeFileSync(join(dir, 'rows.jsonl'), '{"a":1}\n{"a":2}\n');
    const reads: SetFileReads = new Map();
    const first = new SetFiles(dir, 'test', reads);
    const rows = first.jsonLines('rows.jsonl');
    rmSync(join(dir, 'rows.jsonl')); // read again from disk, this would be HUMAN_SET_MISSING
    const second = new SetFiles(dir, 'test', reads);
    expect(second.jsonLines('rows.jsonl')).toBe(rows);
    expect(rows).toEqual([{ a: 1 }, { a: 2 }]);
    expect(second.sha256()).toBe(first.sha256());
    // without shared reads, each reader reads for itself
    expect(() => new SetFiles(dir, 'test').jsonLines('rows.jsonl')).toThrow(/rows\.jsonl is missing/);
  });

  it('a line that is not JSON is INVALID_INPUT naming the file and its line (blank lines counted)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'set-files-'));
    writeFileSync(join(dir, 'rows.jsonl'), '{"a":1}\n\n{"a":\n');
    expect(() => new SetFiles(dir, 'test').jsonLines('rows.jsonl')).toThrow(/rows\.jsonl line 3 is not JSON/);
  });
});

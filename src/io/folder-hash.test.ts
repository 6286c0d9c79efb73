import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';
import { folderFiles } from './folder-files.js';
import { hashInputs } from './hash-inputs.js';

/** A folder of two papers, with a sub-folder (not read: one level deep). */
function papers(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-folder-hash-'));
  writeFileSync(join(dir, 'b.txt'), 'paper b');
  writeFileSync(join(dir, 'a.txt'), 'paper a');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'c.txt'), 'not read');
  return dir;
}

describe('folder hashes: one walk, hidden files skipped', () => {
  it('folderFiles: regular files one level deep, by name, no hidden ones', () => {
    const dir = papers();
    writeFileSync(join(dir, '.DS_Store'), 'Finder');
    expect(folderFiles(dir).map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
  });

  it('a stray .DS_Store changes neither inputs_sha256 (hashInputs) nor the fingerprint', () => {
    const dir = papers();
    const before = { inputs: hashInputs(dir, ['.']), print: fingerprint(dir) };
    writeFileSync(join(dir, '.DS_Store'), 'Finder');
    expect(hashInputs(dir, ['.'])).toEqual(before.inputs);
    expect(fingerprint(dir)).toEqual(before.print);
    // a real paper added does change both
    writeFileSync(join(dir, 'c.txt'), 'paper c');
    expect(hashInputs(dir, ['.'])['.']).not.toBe(before.inputs['.']);
    expect(fingerprint(dir)?.sha256).not.toBe(before.print?.sha256);
  });

  it('hashInputs is over each name then bytes, in name order (the hash pack recomputes)', () => {
    const dir = papers();
    const expected = createHash('sha256').update('a.txt').update('paper a').update('b.txt').update('paper b');
    expect(hashInputs(dir, ['.'])).toEqual({ '.': expected.digest('hex') });
    const file = createHash('sha256').update('a.txt').update('paper a').digest('hex');
    expect(hashInputs(dir, ['a.txt'])).toEqual({ 'a.txt': file });
  });
});

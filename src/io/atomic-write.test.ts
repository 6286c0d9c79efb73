import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeAtomicLeftovers, writeFileAtomic } from './atomic-write.js';

describe('writeFileAtomic', () => {
  it('replaces a file whole and leaves no temporary file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-atomic-'));
    const path = join(dir, 'out.json');
    writeFileSync(path, 'old');
    writeFileAtomic(path, `${'x'.repeat(1 << 20)}\n`);
    expect(readFileSync(path, 'utf8')).toHaveLength((1 << 20) + 1);
    writeFileAtomic(join(dir, 'new', 'deep.json'), new Uint8Array([1, 2, 3]));
    expect([...readFileSync(join(dir, 'new', 'deep.json'))]).toEqual([1, 2, 3]);
    expect(readdirSync(dir).sort()).toEqual(['new', 'out.json']);
  });

  it('says so with a code when the target is a folder, and leaves the folder as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-atomic-'));
    mkdirSync(join(dir, 'taken'));
    expect(() => writeFileAtomic(join(dir, 'taken'), 'x')).toThrow(
      expect.objectContaining({ code: 'OUTPUT_UNWRITABLE', fix: expect.stringMatching(/folder/) }),
    );
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('removes the temporary files a killed writer left, for the targets named only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-atomic-'));
    for (const name of ['.a.json.0123abcd.tmp', '.b.txt.89abcdef.tmp', 'c.json', '.d.json.tmp'])
      writeFileSync(join(dir, name), 'x');
    removeAtomicLeftovers(dir, (target) => target.endsWith('.json'));
    expect(readdirSync(dir).sort()).toEqual(['.b.txt.89abcdef.tmp', '.d.json.tmp', 'c.json']);
    removeAtomicLeftovers(join(dir, 'absent'), () => true);
  });
});

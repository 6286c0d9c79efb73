import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusStore } from './corpus-store.js';
import { PapersDir } from './load-document.js';

describe('PapersCache: a paper found by name and content from another folder', () => {
  it('reads the same file laid out in another folder from the cache, not a renamed or changed one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'papers-cache-'));
    const cache = join(root, 'cache.sqlite');
    for (const d of ['a', 'b', 'c']) mkdirSync(join(root, d));
    writeFileSync(join(root, 'a', 'p1.md'), '# P\n\n## Methods\n\nWe asked 12 people.\n');
    const first = PapersDir.open(join(root, 'a'), { cache });
    const read = await first.matchingText('p1');
    first.close();
    expect(read.forms).not.toBeNull();

    copyFileSync(join(root, 'a', 'p1.md'), join(root, 'b', 'p1.md')); // the same paper elsewhere
    copyFileSync(join(root, 'a', 'p1.md'), join(root, 'c', 'p2.md')); // same bytes, another name
    const second = PapersDir.open(join(root, 'b'), { cache });
    const again = await second.matchingText('p1');
    expect(again.text).toBe(read.text);
    expect(again.forms?.normalized).toBe(read.forms?.normalized);
    second.close();
    const third = PapersDir.open(join(root, 'c'), { cache });
    await third.matchingText('p2');
    third.close();

    const store = CorpusStore.open(cache, { readonly: true });
    try {
      expect(store.findByFile(join(root, 'b', 'p1.md'))).toBeUndefined(); // served, not parsed again
      expect(store.findByFile(join(root, 'c', 'p2.md'))).toBeDefined(); // another name: parsed
    } finally {
      store.close();
    }
  });
});

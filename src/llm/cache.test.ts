import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from './cache.js';

const reply = (text: string) => ({ text, usage: { inputTokens: 3, outputTokens: 1 } });

/** A cache file whose database may not grow past its current pages: inserts fail with SQLITE_FULL. */
function fullCache(warnings: string[]): ResponseCache {
  const path = join(mkdtempSync(join(tmpdir(), 'citegeist-cache-')), 'cache.sqlite');
  new ResponseCache(path).close();
  const cache = new ResponseCache(path, (m) => warnings.push(m));
  // The same connection's limit: what a full disk does to SQLite (SQLITE_FULL), without root.
  (cache as unknown as { db: Database.Database }).db.pragma(
    `max_page_count = ${(cache as unknown as { db: Database.Database }).db.pragma('page_count', { simple: true })}`,
  );
  return cache;
}

describe('ResponseCache on a full disk', () => {
  it('warns once with DISK_FULL naming the file, stops storing, and closes cleanly', () => {
    const warnings: string[] = [];
    const cache = fullCache(warnings);
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, 'm', reply('x'.repeat(2000)));
    expect(() => cache.flush()).not.toThrow();
    cache.set('later', 'm', reply('y'));
    expect(() => cache.close()).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\[DISK_FULL\] The response cache .*cache\.sqlite could not be written/);
  });

  it('takes a reply after close (a call that ended after its command failed) without a timer crash', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'citegeist-cache-')), 'cache.sqlite');
    const cache = new ResponseCache(path);
    cache.set('a', 'm', reply('first'));
    cache.close();
    cache.set('b', 'm', reply('after close'));
    cache.setEmbedding('e', 'm', new Float32Array([1, 2]));
    // The flush a set() schedules runs on the next turn: it must find nothing to do.
    await new Promise((r) => setImmediate(r));
    const reopened = new ResponseCache(path);
    expect(reopened.get('a')?.text).toBe('first');
    expect(reopened.get('b')).toBeUndefined();
    reopened.close();
  });
});

import { describe, expect, it } from 'vitest';
import type { IndexManifest } from './index-dir.js';
import { assertIndexFresh, describeStaleness, indexStaleness } from './staleness.js';

const manifest = (documents: string[], digests?: string[]): IndexManifest => ({
  format: digests ? 3 : 1,
  ...(digests ? { generation: 'g-test' } : {}),
  createdAt: '2025-01-01T00:00:00.000Z',
  documents,
  ...(digests ? { digests } : {}),
  passages: 3,
  maxTokens: 256,
  embedderSpec: null,
  embedderId: null,
  dimensions: null,
});

describe('index staleness', () => {
  const built = manifest(['a', 'b', 'c'], ['h1', 'h2', 'h3']);

  it('is fresh when every document has the digest it was indexed with', () => {
    expect(
      indexStaleness(
        built,
        new Map([
          ['a', 'h1'],
          ['b', 'h2'],
          ['c', 'h3'],
        ]),
      ),
    ).toBeNull();
  });

  it('finds a paper re-ingested under the same id with other content, and added/removed ones', () => {
    const stale = indexStaleness(
      built,
      new Map([
        ['a', 'h1'],
        ['b', 'h2-new'],
        ['d', 'h4'],
      ]),
    );
    expect(stale).toEqual({ added: ['d'], removed: ['c'], changed: ['b'], unverifiable: false });
    expect(describeStaleness(stale!)).toBe(
      '1 paper(s) changed since it was built (b); 1 added (d); 1 removed (c)',
    );
  });

  it('treats an index without digests (format 1) as unverifiable, hence stale, and refuses its format', () => {
    const stale = indexStaleness(manifest(['a']), new Map([['a', 'h1']]));
    expect(stale?.unverifiable).toBe(true);
    // Issue 30: an index of an older format is refused with a coded error that says to rebuild.
    expect(() => assertIndexFresh('idx', manifest(['a']), new Map([['a', 'h1']]))).toThrow(
      expect.objectContaining({ code: 'INDEX_VERSION', fix: expect.stringMatching(/--rebuild/) }),
    );
  });

  it('reports a format-2 index (one-piece files) as outdated even when its digests match', () => {
    const old = { ...built, format: 2 as const };
    delete old.generation;
    const stale = indexStaleness(
      old,
      new Map([
        ['a', 'h1'],
        ['b', 'h2'],
        ['c', 'h3'],
      ]),
    );
    expect(stale?.outdatedFormat).toBe(true);
    expect(describeStaleness(stale!)).toMatch(/index format older than 3/);
  });

  it('assertIndexFresh names the papers and the fix', () => {
    expect(() => assertIndexFresh('idx', built, new Map([['a', 'x']]))).toThrow(
      /changed since it was built \(a\)/,
    );
    expect(() => assertIndexFresh('idx', built, new Map([['a', 'x']]))).toThrow(
      expect.objectContaining({ code: 'INDEX_STALE', fix: expect.stringMatching(/citegeist index/) }),
    );
  });
});

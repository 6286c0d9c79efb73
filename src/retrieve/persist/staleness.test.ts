import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkIndex } from './index-corpus.js';
import { INDEX_FORMAT, type IndexManifest, MANIFEST_FILE } from './index-dir.js';
import { writeIndexPapers } from './index-papers.js';
import {
  assertIndexFresh,
  corpusStaleness,
  describeStaleness,
  indexedPapers,
  indexStaleness,
} from './staleness.js';

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

const root = mkdtempSync(join(tmpdir(), 'cg-staleness-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A current-format index folder whose generation lists `ids` (with `dead` tombstoned) and their digests. */
function current(ids: string[], digests: string[], dead: number[] = [], corpusToken: string | null = null) {
  const dir = mkdtempSync(join(root, 'i-'));
  mkdirSync(join(dir, 'g-test'));
  writeIndexPapers(join(dir, 'g-test'), { ids, dead }, digests);
  const m: IndexManifest = {
    format: INDEX_FORMAT,
    generation: 'g-test',
    createdAt: '2025-01-01T00:00:00.000Z',
    papers: ids.length - dead.length,
    passages: 3,
    corpusToken,
    maxTokens: 256,
    embedderSpec: null,
    embedderId: null,
    dimensions: null,
  };
  return { dir, manifest: m, indexed: indexedPapers(dir, m) };
}

describe('index staleness', () => {
  const { dir, manifest: built, indexed } = current(['a', 'b', 'c'], ['h1', 'h2', 'h3']);

  it('is fresh when every document has the digest it was indexed with', () => {
    expect(
      indexStaleness(
        built,
        new Map([
          ['a', 'h1'],
          ['b', 'h2'],
          ['c', 'h3'],
        ]),
        indexed,
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
      indexed,
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
    const old = { ...manifest(['a', 'b', 'c'], ['h1', 'h2', 'h3']), format: 2 as const };
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
    expect(describeStaleness(stale!)).toMatch(new RegExp(`index format older than ${INDEX_FORMAT}`));
  });

  it('assertIndexFresh names the papers and the fix', () => {
    expect(() => assertIndexFresh(dir, built, new Map([['a', 'x']]))).toThrow(
      /changed since it was built \(a\)/,
    );
    expect(() => assertIndexFresh(dir, built, new Map([['a', 'x']]))).toThrow(
      expect.objectContaining({ code: 'INDEX_STALE', fix: expect.stringMatching(/citegeist index/) }),
    );
  });

  it('leaves tombstoned papers out: a replaced paper is checked at its new content only', () => {
    const t = current(['a', 'b', 'b'], ['h1', 'h2-old', 'h2'], [1]);
    expect([...t.indexed]).toEqual([
      ['a', 'h1'],
      ['b', 'h2'],
    ]);
    const now = new Map([
      ['a', 'h1'],
      ['b', 'h2'],
    ]);
    expect(indexStaleness(t.manifest, now, t.indexed)).toBeNull();
    expect(() => assertIndexFresh(t.dir, t.manifest, now)).not.toThrow();
  });

  it('an unchanged corpus change token settles it without reading the digests; another one compares them', () => {
    const t = current(['a'], ['h1'], [], 'tok-1');
    let read = 0;
    const corpus = (token: string, digests: Map<string, string>) => ({
      changeToken: () => token,
      digests: () => {
        read++;
        return digests;
      },
    });
    assertIndexFresh(t.dir, t.manifest, corpus('tok-1', new Map([['a', 'changed']])));
    expect(read).toBe(0);
    expect(() => assertIndexFresh(t.dir, t.manifest, corpus('tok-2', new Map([['a', 'changed']])))).toThrow(
      expect.objectContaining({ code: 'INDEX_STALE' }),
    );
    expect(read).toBe(1);
    // A re-ingest of the same content changes the token but not the digests: still fresh.
    assertIndexFresh(t.dir, t.manifest, corpus('tok-3', new Map([['a', 'h1']])));
    expect(read).toBe(2);
  });

  it('`index`’s up-to-date check (checkIndex) takes the same shortcut: a matching token reads no digest', () => {
    const t = current(['a'], ['h1'], [], 'tok-1');
    writeFileSync(join(t.dir, MANIFEST_FILE), JSON.stringify(t.manifest));
    let read = 0;
    const corpus = (token: string, digests: Map<string, string>) => ({
      changeToken: () => token,
      digests: () => {
        read++;
        return digests;
      },
    });
    const settings = { embedderSpec: null, maxTokens: 256, includeReferences: true };
    expect(checkIndex(t.dir, corpus('tok-1', new Map([['a', 'changed']])), settings).state).toBe('fresh');
    expect(read).toBe(0);
    const stale = checkIndex(t.dir, corpus('tok-2', new Map([['a', 'changed']])), settings);
    expect(stale.state === 'stale' && stale.staleness?.changed).toEqual(['a']);
    expect(read).toBe(1);
    // The same answer from the function every caller uses.
    expect(corpusStaleness(t.dir, t.manifest, corpus('tok-1', new Map()))).toBeNull();
    expect(corpusStaleness(t.dir, t.manifest, corpus('tok-2', new Map()))?.removed).toEqual(['a']);
  });
});

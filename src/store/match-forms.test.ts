import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MATCH_FORMS_VERSION, matchForms, matchQuote, preparePaper } from '../text/index.js';
import { CorpusStore } from './corpus-store.js';
import { ingestPaths } from './ingest-files.js';
import { PapersDir } from './load-document.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'citegeist-forms-'));
const TEXT =
  '# A paper\n\n## Methods\n\nWe trained the \uFB01rst model for 10 epochs on sci-\nentific text [12].\n';

function paperFile(dir: string, name = 'p1.md', text = TEXT): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('match forms stored with the corpus', () => {
  it('are computed at ingest and read back equal to computing them', async () => {
    const dir = tmp();
    const store = CorpusStore.open(join(dir, 'corpus.sqlite'));
    await ingestPaths(store, [paperFile(dir)]);
    const read = store.matchingText('p1')!;
    const text = store.get('p1')!.text;
    expect(read.text).toBe(text);
    expect(read.forms).toEqual(matchForms(text));
    const quote = 'the first model for 10 epochs on scientific text';
    expect(matchQuote(preparePaper(read.text, { forms: read.forms }), quote, { mode: 'strict' })).toEqual(
      matchQuote(preparePaper(text), quote, { mode: 'strict' }),
    );
    store.close();
  });

  it('are missing from a corpus made before them (computed when grading), and filled in by ingest', async () => {
    const dir = tmp();
    const path = join(dir, 'corpus.sqlite');
    const store = CorpusStore.open(path);
    const file = paperFile(dir);
    await ingestPaths(store, [file]);
    store.close();
    // A corpus from before the table: drop it.
    const db = new Database(path);
    db.exec('DROP TABLE match_forms');
    db.close();
    const old = CorpusStore.open(path, { readonly: true });
    expect(old.matchingText('p1')).toEqual({ text: expect.any(String), forms: null });
    old.close();
    // Opening it to write creates the table; ingesting the unchanged file fills the forms in.
    const writable = CorpusStore.open(path);
    expect(writable.matchingText('p1')?.forms).toBeNull();
    expect((await ingestPaths(writable, [file])).unchanged).toBe(1);
    expect(writable.matchingText('p1')?.forms?.version).toBe(MATCH_FORMS_VERSION);
    writable.close();
  });

  it('of another version are ignored and replaced by ingest', async () => {
    const dir = tmp();
    const path = join(dir, 'corpus.sqlite');
    const store = CorpusStore.open(path);
    const file = paperFile(dir);
    await ingestPaths(store, [file]);
    store.close();
    const db = new Database(path);
    db.prepare('UPDATE match_forms SET version = ?').run(MATCH_FORMS_VERSION - 1);
    db.close();
    const again = CorpusStore.open(path);
    expect(again.matchingText('p1')?.forms).toBeNull();
    expect(again.refreshMatchForms()).toBe(1);
    expect(again.matchingText('p1')?.forms?.version).toBe(MATCH_FORMS_VERSION);
    again.close();
  });
});

describe('PapersDir with a cache', () => {
  it('parses a paper once: later opens read it, and its forms, from the cache', async () => {
    const dir = tmp();
    const papers = join(dir, 'papers');
    mkdirSync(papers);
    paperFile(papers);
    const cache = join(dir, '.citegeist', 'papers-cache.sqlite');
    const first = PapersDir.open(papers, { cache });
    const parsed = await first.load('p1');
    const firstRead = await first.matchingText('p1');
    expect(firstRead.forms).toEqual(matchForms(parsed.text));
    first.close();
    const second = PapersDir.open(papers, { cache });
    expect(await second.load('p1')).toEqual(parsed);
    expect(await second.matchingText('p1')).toEqual(firstRead);
    expect(second.isCached('p1')).toBe(true);
    expect(second.cachedMatchingText('p1')).toEqual(firstRead);
    expect(second.cacheProblem).toBeNull();
    second.close();
  });

  it('reads a changed file again', async () => {
    const dir = tmp();
    const papers = join(dir, 'papers');
    mkdirSync(papers);
    paperFile(papers);
    const cache = join(dir, 'cache.sqlite');
    const first = PapersDir.open(papers, { cache });
    await first.matchingText('p1');
    first.close();
    paperFile(papers, 'p1.md', TEXT.replace('10 epochs', '20 epochs'));
    const second = PapersDir.open(papers, { cache });
    expect((await second.matchingText('p1')).text).toContain('20 epochs');
    second.close();
  });

  it('replaces a cache file that is not a database, and works without one it cannot write', async () => {
    const dir = tmp();
    const papers = join(dir, 'papers');
    mkdirSync(papers);
    paperFile(papers);
    const cache = join(dir, 'cache.sqlite');
    writeFileSync(cache, 'this is not a database, it is a text file that is long enough to look like one');
    const replaced = PapersDir.open(papers, { cache });
    expect((await replaced.matchingText('p1')).forms).not.toBeNull();
    expect(replaced.cacheProblem).toBeNull();
    replaced.close();
    expect(readFileSync(cache).subarray(0, 15).toString()).toBe('SQLite format 3');
    // A cache path whose folder is a file: no cache, the papers are still read.
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file');
    const without = PapersDir.open(papers, { cache: join(blocked, 'cache.sqlite') });
    expect((await without.matchingText('p1')).text).toContain('10 epochs');
    expect(without.cacheProblem).toMatch(/papers cache .* cannot be used/);
    without.close();
  });
});

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../core/index.js';
import { readDocumentFile } from '../ingest/index.js';
import { sharedDataPath } from '../testing/shared-data.js';
import { CORPUS_SCHEMA } from './corpus-schema.js';
import { CorpusStore } from './corpus-store.js';
import { computeDigests } from './digests-table.js';
import { ingestPaths } from './ingest-files.js';
import { loadDocument, PapersDir } from './load-document.js';

const fixtures = join(import.meta.dirname, '..', 'ingest', '__fixtures__');
let dir: string;
let store: CorpusStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'citegeist-store-'));
  store = CorpusStore.open(join(dir, '.citegeist', 'corpus.sqlite'));
});
afterEach(() => store.close());

const md = (title: string, body: string) => `# ${title}\n\n## Intro\n\n${body}\n`;

describe('CorpusStore', () => {
  it("stores each document's digest as it is written, equal to hashing its rows again (issue 30)", async () => {
    const files = ['a', 'b', 'c'].map((n) => {
      const file = join(dir, `${n}.md`);
      writeFileSync(file, md(`Paper ${n}`, `Text of ${n}.`));
      return file;
    });
    await ingestPaths(store, files);
    writeFileSync(files[1]!, md('Paper b', 'Changed text of b.'));
    await ingestPaths(store, files);
    store.remove('c');
    const path = join(dir, '.citegeist', 'corpus.sqlite');
    const db = new Database(path, { readonly: true });
    try {
      const stored = db.prepare('SELECT doc_id, digest FROM doc_digests ORDER BY doc_id').all();
      expect(stored).toHaveLength(2);
      expect(store.digests()).toEqual(computeDigests(db, null));
      expect([...store.digests().keys()]).toEqual(['a', 'b']);
    } finally {
      db.close();
    }
  });

  it('round-trips a document exactly', async () => {
    const file = join(dir, 'paper.md');
    writeFileSync(file, md('A paper', 'Some text.'));
    await ingestPaths(store, [file]);
    const [original] = await readDocumentFile(file);
    expect(store.get('paper')).toEqual({ ...original, meta: { file } });
  });

  it('re-ingesting an unchanged file is a no-op; a changed file replaces its document', async () => {
    const file = join(dir, 'paper.md');
    writeFileSync(file, md('A paper', 'First version.'));
    expect((await ingestPaths(store, [file])).ingested).toBe(1);
    const before = store.list()[0]!.ingestedAt;
    const again = await ingestPaths(store, [file]);
    expect([again.ingested, again.unchanged]).toEqual([0, 1]);
    expect(store.list()[0]!.ingestedAt).toBe(before);
    writeFileSync(file, md('A paper', 'Second version.'));
    const changed = await ingestPaths(store, [file]);
    expect(changed.outcomes[0]).toMatchObject({ status: 'ingested', replaced: true, ids: ['paper'] });
    expect(store.get('paper')!.text).toContain('Second version.');
    expect(store.list()).toHaveLength(1);
  });

  it('gives a readable, deduplicated id per file stem', async () => {
    const a = join(dir, 'x', 'paper.md');
    const b = join(dir, 'y', 'paper.md');
    for (const f of [a, b]) {
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, md(f, 'Text.'));
    }
    const summary = await ingestPaths(store, [a, b]);
    expect(summary.outcomes.map((o) => (o.status === 'ingested' ? o.ids : o.status))).toEqual([
      ['paper'],
      ['paper-2'],
    ]);
  });

  it('keeps stored documents when a batch holds bad files, and says why each failed', async () => {
    const good = join(dir, 'good.md');
    writeFileSync(good, md('Good', 'Fine.'));
    await ingestPaths(store, [good]);
    // The good file turns bad: its old document must survive the failed re-ingest.
    writeFileSync(good, Buffer.alloc(0));
    const bad = [
      'empty.pdf',
      'truncated.pdf',
      'corrupt.pdf',
      'encrypted.pdf',
      'image-only.pdf',
      'malformed.nxml',
      'malformed.json',
    ];
    const summary = await ingestPaths(store, [
      good,
      ...bad.map((f) => join(fixtures, f)),
      join(fixtures, 'tiny.pdf'),
      join(dir, 'missing.pdf'),
    ]);
    const codes = Object.fromEntries(
      summary.outcomes.map((o) => [o.file.split('/').at(-1), o.status === 'failed' ? o.code : o.status]),
    );
    expect(codes).toEqual({
      'good.md': 'EMPTY_FILE',
      'empty.pdf': 'EMPTY_FILE',
      'truncated.pdf': 'INGEST_PDF_CORRUPT',
      'corrupt.pdf': 'INGEST_PDF_CORRUPT',
      'encrypted.pdf': 'INGEST_PDF_ENCRYPTED',
      'image-only.pdf': 'INGEST_NO_TEXT',
      'malformed.nxml': 'INVALID_XML',
      'malformed.json': 'INVALID_JSON',
      'tiny.pdf': 'ingested',
      'missing.pdf': 'FILE_NOT_FOUND',
    });
    for (const o of summary.outcomes)
      if (o.status === 'failed') expect(o.problem).toContain(o.file.split('/').at(-1));
    expect([summary.ingested, summary.failed]).toEqual([1, 9]);
    expect(store.get('good')!.text).toContain('Fine.');
    expect(store.ids()).toEqual(['good', 'tiny']);
  });

  it('refuses a file that is not a corpus', () => {
    const notDb = join(dir, 'not.sqlite');
    writeFileSync(notDb, 'hello, I am not SQLite at all, just some text that is long enough');
    expect(() => CorpusStore.open(notDb)).toThrow(/not a citegeist corpus|cannot be opened/);
  });
});

describe('loadDocument and PapersDir', () => {
  it('loads by id from the corpus and by path from any format', async () => {
    const file = join(dir, 'p1.md');
    writeFileSync(file, md('P one', 'Body.'));
    await ingestPaths(store, [file]);
    const corpus = join(dir, '.citegeist', 'corpus.sqlite');
    expect((await loadDocument('p1', { cwd: dir })).title).toBe('P one');
    expect((await loadDocument('p1.md', { cwd: dir, corpus })).id).toBe('p1');
    const jats = await loadDocument(sharedDataPath('papers', 'jats', 'PMC5828200.nxml'), { cwd: dir });
    expect(jats.source).toBe('jats');
    await expect(loadDocument('nope', { cwd: dir })).rejects.toThrow(
      /"nope" is neither a file nor a document id/,
    );
  });

  it('finds papers of a folder by file stem, preferring PDF over text', async () => {
    const papers = join(dir, 'papers');
    mkdirSync(papers);
    copyFileSync(join(fixtures, 'tiny.pdf'), join(papers, 'x1.pdf'));
    writeFileSync(join(papers, 'x1.txt'), 'Other text.');
    writeFileSync(join(papers, 'x2.txt'), 'Second paper.');
    const dirIndex = PapersDir.open(papers);
    expect(dirIndex.ids().sort()).toEqual(['x1', 'x2']);
    expect((await dirIndex.load('x1')).source).toBe('pdf');
    expect((await dirIndex.load('x2')).text).toBe('Second paper.');
    await expect(dirIndex.load('x3')).rejects.toThrow(/No paper file for id "x3"/);
  });
});

describe('CorpusStore markers and schema upgrade', () => {
  it('round-trips the markers of a document', () => {
    const doc = DocumentSchema.parse({
      id: 'm',
      title: 'T',
      source: 'pdf',
      text: 'Prior work [1] shows it.\n\n[1] A. Author. 2020.',
      paragraphs: [
        { id: 'p1', sectionId: null, page: 1, start: 0, end: 24 },
        { id: 'p2', sectionId: null, page: 1, start: 26, end: 46, kind: 'reference' },
      ],
      markers: [{ start: 11, end: 14, kind: 'citation', targets: ['p2'] }],
    });
    store.upsert(doc);
    expect(store.get('m')!.markers).toEqual(doc.markers);
  });

  it('upgrades a version 1 store in place and reads it read-only before that', () => {
    const path = join(dir, 'v1.sqlite');
    const old = new Database(path);
    old.exec(CORPUS_SCHEMA.replace(/CREATE TABLE IF NOT EXISTS markers[\s\S]*?\);/, ''));
    old.prepare("INSERT INTO store_info (key, value) VALUES ('schema_version', '1')").run();
    old
      .prepare(
        "INSERT INTO documents (id, title, source, language, text, content_hash, ingested_at) VALUES ('a', 'A', 'text', 'en', 'x', '', '')",
      )
      .run();
    old.close();
    const reader = CorpusStore.open(path, { readonly: true });
    expect(reader.get('a')!.markers).toEqual([]);
    reader.close();
    CorpusStore.open(path).close();
    const upgraded = new Database(path, { readonly: true });
    expect(upgraded.prepare("SELECT value FROM store_info WHERE key = 'schema_version'").get()).toEqual({
      value: '2',
    });
    upgraded.close();
  });

  it('a reader leaves no -wal or -shm behind once no writer is open, and keeps them while one is (issue 31)', async () => {
    const file = join(dir, 'paper.md');
    writeFileSync(file, md('A paper', 'Some text.'));
    await ingestPaths(store, [file]);
    const path = join(dir, '.citegeist', 'corpus.sqlite');
    const leftovers = () => ['-wal', '-shm'].filter((s) => existsSync(path + s));

    // The writer (the store of beforeEach) is open: a reader's close must not remove its WAL.
    const during = CorpusStore.open(path, { readonly: true });
    expect(during.get('paper')?.title).toBe('A paper');
    during.close();
    expect(leftovers()).toEqual(['-wal', '-shm']);

    store.close();
    const after = CorpusStore.open(path, { readonly: true });
    expect(after.list().map((d) => d.id)).toEqual(['paper']);
    after.close();
    expect(leftovers()).toEqual([]);
  });

  it('a reader refuses writes', async () => {
    const path = join(dir, '.citegeist', 'corpus.sqlite');
    const reader = CorpusStore.open(path, { readonly: true });
    try {
      expect(() => reader.remove('x')).toThrow(/readonly|query_only|read-only/i);
    } finally {
      reader.close();
    }
  });
});

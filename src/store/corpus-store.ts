import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CitegeistError, type Document, type DocumentMeta, DocumentSchema } from '../core/index.js';
import { assertRegularInput, sqliteWriteError, systemError } from '../io/index.js';
import type { MatchForms } from '../text/index.js';
import { CHANGE_TOKEN_SCHEMA, readChangeToken } from './change-token.js';
import { CORPUS_SCHEMA, CORPUS_SCHEMA_VERSION, UPGRADABLE_FROM } from './corpus-schema.js';
import { DIGESTS_SCHEMA, hasDigestsTable, readDigests, writeDigest } from './digests-table.js';
import {
  formsOfRow,
  hasMatchFormsTable,
  MATCH_FORMS_SCHEMA,
  refreshMatchForms,
  writeMatchForms,
} from './match-forms-table.js';

/** One row of `CorpusStore.list()`. */
export interface DocumentSummary {
  id: string;
  title: string;
  source: Document['source'];
  domain: string | null;
  file: string | null;
  pages: number;
  sections: number;
  paragraphs: number;
  chars: number;
  ingestedAt: string;
}

/** What the store knows about an ingested file. */
export interface StoredFile {
  path: string;
  contentHash: string;
  ingestedAt: string;
  ids: string[];
}

type Row = Record<string, unknown>;

/** A document's text with the quote matcher's stored forms of it (null: not stored, or stale). */
/** How long a connection waits for another's write transaction before SQLITE_BUSY. */
const WRITER_WAIT_MS = 60_000;

export interface MatchingText {
  text: string;
  forms: MatchForms | null;
}

/**
 * A connection for reading only. SQLite deletes a WAL corpus's `-wal` and `-shm` files when the last
 * connection closes, but a `readonly` connection cannot: every `list` or `search` would leave them
 * behind. So where the corpus and its folder are writable the reader opens read-write with
 * `query_only` (SQLite refuses any write on it), and its close checkpoints and removes them, which
 * SQLite does only when no other connection (a writer) is open. Elsewhere it opens `readonly`.
 */
function openReader(path: string): Database.Database {
  if (writable(path) && writable(dirname(path))) {
    try {
      const db = new Database(path, { fileMustExist: true, timeout: WRITER_WAIT_MS });
      db.pragma('query_only = ON');
      return db;
    } catch {
      // Fall through to a plain read-only connection (e.g. a file system that refuses locks).
    }
  }
  return new Database(path, { readonly: true, fileMustExist: true, timeout: WRITER_WAIT_MS });
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The corpus of one workspace in one SQLite file: documents with their text, pages, sections,
 * paragraphs, furniture and metadata, the quote matcher's forms of each text (`match-forms-table.ts`),
 * and the files they came from with a content hash. Writing a file's documents replaces the
 * previous ones of that file in one transaction, so a reader never sees half a document and a
 * failure leaves the old version in place.
 */
export class CorpusStore {
  /** Whether the corpus has the `match_forms` table (corpora from before it may not, read-only). */
  private formsTable = false;
  /** Whether the corpus stores content digests (`digests-table.ts`); older read-only ones may not. */
  private digestsTable = false;

  private constructor(
    private readonly db: Database.Database,
    readonly path: string,
  ) {}

  /**
   * Opens (creating when missing, unless `readonly`) the store at `path`. `durable: false` (a
   * cache) commits without waiting for the disk: a killed process loses nothing, a power cut may
   * lose the last commits but never corrupts the file (SQLite's WAL with `synchronous = NORMAL`).
   */
  static open(path: string, options: { readonly?: boolean; durable?: boolean } = {}): CorpusStore {
    let db: Database.Database;
    // A FIFO or device given as the corpus would block SQLite's reads or never end.
    if (existsSync(path)) assertRegularInput(path, 'corpus');
    try {
      if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
      db = options.readonly
        ? openReader(path)
        : new Database(path, {
            // A second writer (two `ingest`s into one corpus) waits for the first's transaction
            // rather than failing after better-sqlite3's default 5 s, which a loaded machine exceeded.
            timeout: WRITER_WAIT_MS,
          });
    } catch (error) {
      const coded = options.readonly
        ? error
        : sqliteWriteError(systemError(error, path, 'corpus', 'write'), path, 'corpus', 'CORPUS_READ_ONLY');
      if (coded instanceof CitegeistError) throw coded;
      throw new CitegeistError(
        'CORPUS_UNREADABLE',
        `Corpus ${path} cannot be opened (${error instanceof Error ? error.message : String(error)}).`,
        options.readonly
          ? 'Ingest papers first: `citegeist ingest <files>` (or pass --corpus <path>).'
          : 'Check the path and its permissions.',
        { cause: error },
      );
    }
    const store = new CorpusStore(db, path);
    try {
      store.init(options.readonly ?? false);
      if (options.durable === false && !options.readonly) db.pragma('synchronous = NORMAL');
    } catch (error) {
      db.close();
      if (error instanceof CitegeistError) throw error;
      const coded = sqliteWriteError(error, path, 'corpus', 'CORPUS_READ_ONLY');
      if (coded !== error) throw coded;
      throw new CitegeistError(
        'CORPUS_UNREADABLE',
        `${path} is not a citegeist corpus (${error instanceof Error ? error.message : String(error)}).`,
        'Pass another --corpus path, or move the file away so a new corpus is created.',
        { cause: error },
      );
    }
    return store;
  }

  private init(readonly: boolean): void {
    this.db.pragma('foreign_keys = ON');
    if (!readonly) {
      this.db.pragma('journal_mode = WAL');
      this.db.exec(CORPUS_SCHEMA);
      this.db.exec(MATCH_FORMS_SCHEMA);
      this.db.exec(DIGESTS_SCHEMA);
      this.db.exec(CHANGE_TOKEN_SCHEMA);
      this.db
        .prepare('INSERT OR IGNORE INTO store_info (key, value) VALUES (?, ?)')
        .run('schema_version', String(CORPUS_SCHEMA_VERSION));
    }
    const row = this.db.prepare("SELECT value FROM store_info WHERE key = 'schema_version'").get() as
      | Row
      | undefined;
    const version = Number(row?.value);
    if (UPGRADABLE_FROM.includes(version) && !readonly) {
      // The schema above has just created what the older version lacked.
      this.db
        .prepare("UPDATE store_info SET value = ? WHERE key = 'schema_version'")
        .run(String(CORPUS_SCHEMA_VERSION));
    } else if (version !== CORPUS_SCHEMA_VERSION && !UPGRADABLE_FROM.includes(version)) {
      throw new CitegeistError(
        'CORPUS_SCHEMA_MISMATCH',
        `Corpus ${this.path} has schema version ${String(row?.value)}; this citegeist reads version ${CORPUS_SCHEMA_VERSION}.`,
        'Re-ingest the papers into a new corpus (`citegeist ingest … --corpus <new path>`).',
      );
    }
    this.formsTable = hasMatchFormsTable(this.db);
    this.digestsTable = hasDigestsTable(this.db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The stored file at `path` (absolute), with the ids of its documents. */
  findByFile(path: string): StoredFile | undefined {
    const row = this.db
      .prepare('SELECT path, content_hash, ingested_at FROM files WHERE path = ?')
      .get(path) as Row | undefined;
    if (!row) return undefined;
    const ids = (
      this.db.prepare('SELECT id FROM documents WHERE file = ? ORDER BY ord').all(path) as Row[]
    ).map((r) => String(r.id));
    return {
      path: String(row.path),
      contentHash: String(row.content_hash),
      ingestedAt: String(row.ingested_at),
      ids,
    };
  }

  /**
   * Stored files with this content hash whose name (last path segment) is `name`, other than
   * `path`: the same bytes read from another folder (a study laid out again by `replay`), which
   * parse to the same documents. Sorted by path, so the pick is stable.
   */
  findByContent(name: string, contentHash: string, path: string): StoredFile[] {
    const rows = this.db
      .prepare('SELECT path FROM files WHERE content_hash = ? AND path != ? ORDER BY path')
      .all(contentHash, path) as Row[];
    return rows
      .map((r) => String(r.path))
      .filter((p) => basename(p) === name)
      .flatMap((p) => this.findByFile(p) ?? []);
  }

  /**
   * Replaces the documents of file `path` by `docs`, atomically. A document whose id is taken by
   * another file's document gets `-2`, `-3`, … appended. Returns the ids as stored.
   */
  upsertFile(
    path: string,
    contentHash: string,
    docs: readonly Document[],
    out: { forms?: Map<string, MatchForms> } = {},
  ): string[] {
    const now = new Date().toISOString();
    const run = this.db.transaction(() => {
      this.db.prepare('DELETE FROM documents WHERE file = ?').run(path);
      this.db
        .prepare(
          'INSERT INTO files (path, content_hash, ingested_at) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET content_hash = excluded.content_hash, ingested_at = excluded.ingested_at',
        )
        .run(path, contentHash, now);
      return docs.map((doc, ord) => this.insert(doc, { file: path, ord, contentHash, now }, out.forms));
    });
    // IMMEDIATE, as refreshMatchForms explains: a second writer waits instead of failing.
    return run.immediate();
  }

  /** Stores one document that has no file (replacing a stored one with the same id). */
  upsert(doc: Document, contentHash = ''): string {
    const run = this.db.transaction(() => {
      this.db.prepare('DELETE FROM documents WHERE id = ?').run(doc.id);
      return this.insert(doc, { file: null, ord: 0, contentHash, now: new Date().toISOString() });
    });
    // IMMEDIATE, as refreshMatchForms explains: a second writer waits instead of failing.
    return run.immediate();
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM documents WHERE id = ?').run(id).changes > 0;
  }

  private freeId(wanted: string): string {
    const taken = this.db.prepare('SELECT 1 FROM documents WHERE id = ?');
    if (!taken.get(wanted)) return wanted;
    for (let n = 2; ; n++) if (!taken.get(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }

  /** Stores `doc`; the match forms it computes go into `forms` by stored id, when given. */
  private insert(
    doc: Document,
    at: { file: string | null; ord: number; contentHash: string; now: string },
    forms?: Map<string, MatchForms>,
  ): string {
    const id = this.freeId(doc.id);
    const db = this.db;
    db.prepare(
      'INSERT INTO documents (id, file, ord, title, source, language, domain, text, content_hash, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      id,
      at.file,
      at.ord,
      doc.title,
      doc.source,
      doc.language,
      doc.domain ?? null,
      doc.text,
      at.contentHash,
      at.now,
    );
    const meta = db.prepare('INSERT INTO metadata (doc_id, key, value) VALUES (?, ?, ?)');
    for (const [k, v] of Object.entries(doc.meta)) if (v !== undefined) meta.run(id, k, JSON.stringify(v));
    const page = db.prepare('INSERT INTO pages (doc_id, number, start, end) VALUES (?, ?, ?, ?)');
    for (const p of doc.pages) page.run(id, p.number, p.start, p.end);
    const section = db.prepare(
      'INSERT INTO sections (doc_id, ord, id, heading, level, path, start, end) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const [i, s] of doc.sections.entries())
      section.run(id, i, s.id, s.heading, s.level, JSON.stringify(s.path), s.start, s.end);
    const para = db.prepare(
      'INSERT INTO paragraphs (doc_id, ord, id, section_id, page, kind, start, end) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const [i, p] of doc.paragraphs.entries())
      para.run(id, i, p.id, p.sectionId, p.page, p.kind, p.start, p.end);
    const furn = db.prepare('INSERT INTO furniture (doc_id, ord, page, kind, text) VALUES (?, ?, ?, ?, ?)');
    for (const [i, f] of doc.furniture.entries()) furn.run(id, i, f.page, f.kind, f.text);
    const marker = db.prepare(
      'INSERT INTO markers (doc_id, ord, start, end, kind, targets) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const [i, m] of doc.markers.entries())
      marker.run(id, i, m.start, m.end, m.kind, JSON.stringify(m.targets));
    if (this.formsTable) {
      const written = writeMatchForms(db, id, doc.text);
      forms?.set(id, written);
    }
    if (this.digestsTable) writeDigest(db, id);
    return id;
  }

  /**
   * The text of document `id` and its stored match forms, or undefined when there is no such
   * document: what grading reads (one query; the rest of the document is not needed).
   */
  matchingText(id: string, options: { forms?: boolean } = {}): MatchingText | undefined {
    const withForms = this.formsTable && options.forms !== false;
    const sql = withForms
      ? 'SELECT d.text, f.version, f.normalized, f.no_space, f.jumps, f.vocabulary, f.tokens FROM documents d LEFT JOIN match_forms f ON f.doc_id = d.id WHERE d.id = ?'
      : 'SELECT text FROM documents WHERE id = ?';
    const row = this.db.prepare(sql).get(id) as Row | undefined;
    if (!row) return undefined;
    return { text: String(row.text), forms: withForms ? formsOfRow(row) : null };
  }

  /**
   * Computes and stores the match forms of the given documents (default: all) where they are
   * missing or were made by another version of the normaliser; returns how many were written.
   */
  refreshMatchForms(ids: readonly string[] = this.ids()): number {
    return this.formsTable ? refreshMatchForms(this.db, ids) : 0;
  }

  /** Statements `get` runs, prepared once (preparing them per document was 3% of an index build). */
  private readonly prepared = new Map<string, Database.Statement>();

  private statement(sql: string): Database.Statement {
    let s = this.prepared.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }

  /** The stored document `id`, or undefined. */
  get(id: string): Document | undefined {
    const row = this.statement('SELECT * FROM documents WHERE id = ?').get(id) as Row | undefined;
    if (!row) return undefined;
    const meta: Record<string, unknown> = {};
    for (const m of this.statement('SELECT key, value FROM metadata WHERE doc_id = ?').all(id) as Row[]) {
      meta[String(m.key)] = JSON.parse(String(m.value));
    }
    const all = (sql: string) => this.statement(sql).all(id) as Row[];
    return DocumentSchema.parse({
      id: row.id,
      title: row.title,
      source: row.source,
      language: row.language,
      ...(row.domain ? { domain: row.domain } : {}),
      meta: meta as DocumentMeta,
      text: row.text,
      pages: all('SELECT number, start, end FROM pages WHERE doc_id = ? ORDER BY number'),
      sections: all(
        'SELECT id, heading, level, path, start, end FROM sections WHERE doc_id = ? ORDER BY ord',
      ).map((s) => ({
        ...s,
        path: JSON.parse(String(s.path)),
      })),
      paragraphs: all(
        'SELECT id, section_id, page, kind, start, end FROM paragraphs WHERE doc_id = ? ORDER BY ord',
      ).map(({ section_id, ...p }) => ({ ...p, sectionId: section_id })),
      furniture: all('SELECT page, kind, text FROM furniture WHERE doc_id = ? ORDER BY ord'),
      markers: this.hasMarkers()
        ? all('SELECT start, end, kind, targets FROM markers WHERE doc_id = ? ORDER BY ord').map((m) => ({
            ...m,
            targets: JSON.parse(String(m.targets)),
          }))
        : [],
    });
  }

  /** A version 1 store opened read-only has no markers table. */
  private hasMarkers(): boolean {
    this.markersTable ??=
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'markers'").get() !==
      undefined;
    return this.markersTable;
  }

  private markersTable: boolean | undefined;

  /** Every stored document, in id order, with its counts. */
  list(): DocumentSummary[] {
    const rows = this.db
      .prepare(
        `SELECT d.id, d.title, d.source, d.domain, d.file, d.ingested_at, length(d.text) AS chars,
          (SELECT count(*) FROM pages p WHERE p.doc_id = d.id) AS pages,
          (SELECT count(*) FROM sections s WHERE s.doc_id = d.id) AS sections,
          (SELECT count(*) FROM paragraphs g WHERE g.doc_id = d.id) AS paragraphs
         FROM documents d ORDER BY d.id`,
      )
      .all() as Row[];
    return rows.map((r) => ({
      id: String(r.id),
      title: String(r.title),
      source: r.source as Document['source'],
      domain: r.domain === null || r.domain === undefined ? null : String(r.domain),
      file: r.file === null ? null : String(r.file),
      pages: Number(r.pages),
      sections: Number(r.sections),
      paragraphs: Number(r.paragraphs),
      chars: Number(r.chars),
      ingestedAt: String(r.ingested_at),
    }));
  }

  /**
   * A content digest per stored document (id → sha256 hex of its title, text, sections and
   * paragraphs: everything passages are cut from), in id order. A document re-ingested with other
   * text under the same id gets another digest, which is how an index tells it is stale. Stored
   * when a document is written, so this reads one row per document (`digests-table.ts`).
   */
  digests(): Map<string, string> {
    return readDigests(this.db, this.digestsTable);
  }

  /**
   * A token replaced whenever a document is written or removed (`change-token.ts`): equal tokens
   * mean the same documents; null for a corpus this version has not written.
   */
  changeToken(): string | null {
    return readChangeToken(this.db);
  }

  /** Whether the corpus holds no document (one row read, whatever its size). */
  isEmpty(): boolean {
    return this.db.prepare('SELECT 1 FROM documents LIMIT 1').get() === undefined;
  }

  /** Ids of every stored document. */
  ids(): string[] {
    return (this.db.prepare('SELECT id FROM documents ORDER BY id').all() as Row[]).map((r) => String(r.id));
  }
}

import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

type Row = Record<string, unknown>;

/**
 * Each document's content digest, stored when the document is written so that checking an index
 * against the corpus reads one row per paper instead of re-hashing every text (7.9 s at 14,000
 * papers, issue 30). Rows go with their document (ON DELETE CASCADE). Corpora from before the table
 * get it when opened for writing; documents without a row are hashed on demand.
 */
export const DIGESTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS doc_digests (
  doc_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  digest TEXT NOT NULL
);
`;

export function hasDigestsTable(db: Database.Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'doc_digests'").get() !==
    undefined
  );
}

/**
 * The sha256 hex of a document's title, text, sections and paragraphs (everything passages are cut
 * from), read back from its stored rows: of the documents named in `ids`, or of all when null.
 */
export function computeDigests(db: Database.Database, ids: readonly string[] | null): Map<string, string> {
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  const one = ids !== null;
  const where = one ? 'WHERE id = ?' : '';
  const whereDoc = one ? 'WHERE doc_id = ?' : '';
  // Each statement prepared once, not once per document (an older corpus computes them all).
  const prepared = new Map<string, Database.Statement>();
  const rows = (sql: string, id?: string) => {
    let stmt = prepared.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      prepared.set(sql, stmt);
    }
    return (id === undefined ? stmt.iterate() : stmt.iterate(id)) as Iterable<Row>;
  };
  const each = (fn: (id?: string) => void) => {
    if (ids === null) fn();
    else for (const id of ids) fn(id);
  };
  each((id) => {
    for (const r of rows(`SELECT id, title, text FROM documents ${where} ORDER BY id`, id))
      hashes.set(String(r.id), createHash('sha256').update(`${r.title}\u0000${r.text}\u0000`));
  });
  const add = (sql: string) =>
    each((id) => {
      for (const r of rows(sql, id)) {
        const { doc_id, ...rest } = r;
        hashes.get(String(doc_id))?.update(`${JSON.stringify(Object.values(rest))}\n`);
      }
    });
  add(`SELECT doc_id, id, heading, level, path, start, end FROM sections ${whereDoc} ORDER BY doc_id, ord`);
  add(
    `SELECT doc_id, id, section_id, page, kind, start, end FROM paragraphs ${whereDoc} ORDER BY doc_id, ord`,
  );
  return new Map([...hashes].map(([id, h]) => [id, h.digest('hex')]));
}

/** Stores the digest of document `id` as its rows are now (called inside the write transaction). */
export function writeDigest(db: Database.Database, id: string): void {
  const digest = computeDigests(db, [id]).get(id);
  if (digest !== undefined)
    db.prepare('INSERT OR REPLACE INTO doc_digests (doc_id, digest) VALUES (?, ?)').run(id, digest);
}

/** Every document's digest in id order: stored ones read, missing ones computed (older corpora). */
export function readDigests(db: Database.Database, hasTable: boolean): Map<string, string> {
  if (!hasTable) return computeDigests(db, null);
  // Two index- or table-order scans joined here: a JOIN walked the 2 GB documents table's pages
  // on a cold cache (1 s at 14,000 papers), the covering id index and the small digests table do not.
  const stored = new Map<string, string>();
  for (const r of db.prepare('SELECT doc_id, digest FROM doc_digests').iterate() as Iterable<Row>)
    stored.set(String(r.doc_id), String(r.digest));
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const r of db.prepare('SELECT id FROM documents ORDER BY id').iterate() as Iterable<Row>) {
    const id = String(r.id);
    const digest = stored.get(id);
    if (digest === undefined) missing.push(id);
    out.set(id, digest ?? '');
  }
  // Most missing (a corpus from before the table): three scans beat three queries per paper.
  const computed = missing.length > out.size / 2 ? computeDigests(db, null) : computeDigests(db, missing);
  for (const id of missing) out.set(id, computed.get(id) ?? '');
  return out;
}

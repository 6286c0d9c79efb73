/**
 * The `match_forms` table of a corpus: per document, what the quote matcher computes from its text
 * before any look-up (`MatchForms`: normalised text, no-space form, offset map), computed at ingest
 * so that grading reads it instead of normalising every paper again. Each row records the
 * `MATCH_FORMS_VERSION` it was made with; rows of another version, and corpora made before the
 * table existed, are read as "no forms" (the grader computes them) until `citegeist ingest` runs
 * on the corpus again and fills them in. The table has its own version, apart from the corpus
 * schema's: adding it changes nothing else a corpus holds.
 */
import type Database from 'better-sqlite3';
import { MATCH_FORMS_VERSION, type MatchForms, matchForms } from '../text/index.js';

export const MATCH_FORMS_SCHEMA = `
CREATE TABLE IF NOT EXISTS match_forms (
  doc_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  normalized TEXT NOT NULL,
  no_space TEXT NOT NULL,
  jumps BLOB NOT NULL
);
`;

type Row = Record<string, unknown>;

/** Whether the corpus has the table (a read-only corpus made before it existed has not). */
export function hasMatchFormsTable(db: Database.Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'match_forms'").get() !==
    undefined
  );
}

/** Computes and stores the forms of one document (replacing older ones). */
export function writeMatchForms(db: Database.Database, id: string, text: string): void {
  const forms = matchForms(text);
  db.prepare(
    'INSERT OR REPLACE INTO match_forms (doc_id, version, normalized, no_space, jumps) VALUES (?, ?, ?, ?, ?)',
  ).run(id, forms.version, forms.normalized, forms.noSpace, Buffer.from(forms.jumps.buffer));
}

/** The forms of a `match_forms` row (null when missing or of another version). */
export function formsOfRow(row: Row | undefined): MatchForms | null {
  if (!row || Number(row.version) !== MATCH_FORMS_VERSION) return null;
  const blob = row.jumps as Buffer;
  // Copied into an aligned array of its own (the blob's buffer may be shared and unaligned).
  const jumps = new Int32Array(blob.byteLength >> 2);
  new Uint8Array(jumps.buffer).set(blob.subarray(0, jumps.byteLength));
  return {
    version: MATCH_FORMS_VERSION,
    normalized: String(row.normalized),
    noSpace: String(row.no_space),
    jumps,
  };
}

/** Fills in the forms of the given documents where they are missing or of another version. */
export function refreshMatchForms(db: Database.Database, ids: readonly string[]): number {
  const current = db.prepare('SELECT version FROM match_forms WHERE doc_id = ?');
  const text = db.prepare('SELECT text FROM documents WHERE id = ?');
  let written = 0;
  db.transaction(() => {
    for (const id of ids) {
      const row = current.get(id) as Row | undefined;
      if (row && Number(row.version) === MATCH_FORMS_VERSION) continue;
      const doc = text.get(id) as Row | undefined;
      if (!doc) continue;
      writeMatchForms(db, id, String(doc.text));
      written++;
    }
  })();
  return written;
}

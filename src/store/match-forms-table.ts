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
import { MATCH_FORMS_VERSION, type MatchForms, matchForms, type StoredTokens } from '../text/index.js';

export const MATCH_FORMS_SCHEMA = `
CREATE TABLE IF NOT EXISTS match_forms (
  doc_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  normalized TEXT NOT NULL,
  no_space TEXT NOT NULL,
  jumps BLOB NOT NULL,
  vocabulary TEXT NOT NULL,
  tokens BLOB NOT NULL
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

/** Computes and stores the forms of one document (replacing older ones); returns them. */
export function writeMatchForms(db: Database.Database, id: string, text: string): MatchForms {
  const forms = matchForms(text);
  db.prepare(
    'INSERT OR REPLACE INTO match_forms (doc_id, version, normalized, no_space, jumps, vocabulary, tokens) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    id,
    forms.version,
    forms.normalized,
    forms.noSpace,
    bytes(forms.jumps),
    JSON.stringify(forms.tokens.vocabulary),
    packTokens(forms.tokens),
  );
  return forms;
}

/** The forms of a `match_forms` row (null when missing or of another version). */
export function formsOfRow(row: Row | undefined): MatchForms | null {
  if (!row || Number(row.version) !== MATCH_FORMS_VERSION) return null;
  return {
    version: MATCH_FORMS_VERSION,
    normalized: String(row.normalized),
    noSpace: String(row.no_space),
    jumps: int32s(row.jumps as Buffer, 0, (row.jumps as Buffer).byteLength >> 2),
    tokens: unpackTokens(JSON.parse(String(row.vocabulary)) as string[], row.tokens as Buffer),
  };
}

function bytes(array: Int32Array | Uint8Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** `count` int32s of a blob from byte `at`, copied into an aligned array of their own. */
function int32s(blob: Buffer, at: number, count: number): Int32Array {
  const out = new Int32Array(count);
  new Uint8Array(out.buffer).set(blob.subarray(at, at + count * 4));
  return out;
}

/** Tokens as one blob: start, end and id (int32 each), then kind, splitAt and breakAfter (a byte each). */
function packTokens(t: StoredTokens): Buffer {
  return Buffer.concat([t.start, t.end, t.ids, t.kind, t.splitAt, t.breakAfter].map(bytes));
}

function unpackTokens(vocabulary: string[], blob: Buffer): StoredTokens {
  const n = blob.byteLength / 15;
  const byte = (k: number) => new Uint8Array(blob.subarray(12 * n + k * n, 12 * n + (k + 1) * n));
  return {
    vocabulary,
    start: int32s(blob, 0, n),
    end: int32s(blob, 4 * n, n),
    ids: int32s(blob, 8 * n, n),
    kind: byte(0),
    splitAt: byte(1),
    breakAfter: byte(2),
  };
}

/** Fills in the forms of the given documents where they are missing or of another version. */
export function refreshMatchForms(db: Database.Database, ids: readonly string[]): number {
  const current = db.prepare('SELECT version FROM match_forms WHERE doc_id = ?');
  const text = db.prepare('SELECT text FROM documents WHERE id = ?');
  let written = 0;
  // IMMEDIATE: the write lock is taken before the first read. A deferred transaction that reads and
  // then writes fails at once (SQLITE_BUSY, no waiting) when another writer committed in between,
  // which is what a second `ingest` into the same corpus met on files the first had just stored.
  db.transaction(() => {
    for (const id of ids) {
      const row = current.get(id) as Row | undefined;
      if (row && Number(row.version) === MATCH_FORMS_VERSION) continue;
      const doc = text.get(id) as Row | undefined;
      if (!doc) continue;
      writeMatchForms(db, id, String(doc.text));
      written++;
    }
  }).immediate();
  return written;
}

/**
 * The corpus store's SQLite schema. Bump `CORPUS_SCHEMA_VERSION` on any change, and list the
 * versions a store can be upgraded from in place in `UPGRADABLE_FROM` (version 2 added `markers`;
 * a version 1 store gets the table when it is opened for writing, and reads as having no markers).
 */
export const CORPUS_SCHEMA_VERSION = 2;
export const UPGRADABLE_FROM = [1];

export const CORPUS_SCHEMA = `
CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  content_hash TEXT NOT NULL,
  ingested_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
  id TEXT PRIMARY KEY,
  file TEXT REFERENCES files(path) ON DELETE CASCADE,
  ord INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL,
  source TEXT NOT NULL,
  language TEXT NOT NULL,
  domain TEXT,
  text TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  ingested_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_file ON documents(file);
CREATE TABLE IF NOT EXISTS metadata (
  doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (doc_id, key)
);
CREATE TABLE IF NOT EXISTS pages (
  doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  PRIMARY KEY (doc_id, number)
);
CREATE TABLE IF NOT EXISTS sections (
  doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  id TEXT NOT NULL,
  heading TEXT NOT NULL,
  level INTEGER NOT NULL,
  path TEXT NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  PRIMARY KEY (doc_id, ord)
);
CREATE TABLE IF NOT EXISTS paragraphs (
  doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  id TEXT NOT NULL,
  section_id TEXT,
  page INTEGER,
  kind TEXT NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  PRIMARY KEY (doc_id, ord)
);
CREATE TABLE IF NOT EXISTS furniture (
  doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  page INTEGER NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (doc_id, ord)
);
CREATE TABLE IF NOT EXISTS markers (
  doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  kind TEXT NOT NULL,
  targets TEXT NOT NULL,
  PRIMARY KEY (doc_id, ord)
);
`;

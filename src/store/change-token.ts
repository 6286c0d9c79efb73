import type Database from 'better-sqlite3';

/**
 * A token that changes whenever a document is written or removed: a random value in `store_info`
 * replaced by triggers on `documents`. An index records the token it was built against, so opening
 * it compares one row instead of every paper's digest (issue 30: open ≤ 100 ms at any size); only
 * when the token differs are the digests compared (a re-ingest of the same content is no change).
 * The triggers live in the database file, so any writer, of any citegeist version, replaces it.
 */
export const CHANGE_TOKEN_SCHEMA = ['INSERT', 'DELETE', 'UPDATE']
  .map(
    (event) => `
CREATE TRIGGER IF NOT EXISTS change_token_${event.toLowerCase()} AFTER ${event} ON documents BEGIN
  INSERT OR REPLACE INTO store_info (key, value) VALUES ('change_token', lower(hex(randomblob(16))));
END;`,
  )
  .join('\n')
  .concat(`
INSERT OR IGNORE INTO store_info (key, value) VALUES ('change_token', lower(hex(randomblob(16))));
`);

/** The corpus's change token, or null for a corpus no writer of this version has opened yet. */
export function readChangeToken(db: Database.Database): string | null {
  const row = db.prepare("SELECT value FROM store_info WHERE key = 'change_token'").get() as
    | { value: string }
    | undefined;
  return row?.value ?? null;
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteWriteError } from './sqlite-write-error.js';

/** The error SQLite gives for `sql` on a fresh database at `path`, set up by `setUp`. */
function sqliteErrorOf(setUp: (db: Database.Database) => void, sql: string, path: string): unknown {
  const db = new Database(path);
  db.exec('CREATE TABLE t (x BLOB)');
  db.close();
  const again = new Database(path, { readonly: false });
  setUp(again);
  try {
    again.exec(sql);
  } catch (error) {
    return error;
  } finally {
    again.close();
  }
  throw new Error('no error');
}

describe('sqliteWriteError', () => {
  const path = () => join(mkdtempSync(join(tmpdir(), 'citegeist-sqlite-')), 'c.sqlite');

  it('a database that may not grow (as on a full disk) is DISK_FULL naming the file', () => {
    const file = path();
    const error = sqliteErrorOf(
      (db) => db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`),
      'INSERT INTO t VALUES (randomblob(100000))',
      file,
    );
    expect(sqliteWriteError(error, file, 'corpus', 'CORPUS_READ_ONLY')).toMatchObject({
      code: 'DISK_FULL',
      problem: expect.stringContaining(file),
    });
  });

  it('a read-only database is the read-only code given, not "not a corpus"', () => {
    const file = path();
    new Database(file).exec('CREATE TABLE t (x)');
    const db = new Database(file, { readonly: true });
    let error: unknown;
    try {
      db.exec('INSERT INTO t VALUES (1)');
    } catch (e) {
      error = e;
    }
    db.close();
    expect(sqliteWriteError(error, file, 'corpus', 'CORPUS_READ_ONLY')).toMatchObject({
      code: 'CORPUS_READ_ONLY',
      fix: expect.stringMatching(/writable/),
    });
    const other = new Error('something else');
    expect(sqliteWriteError(other, file, 'corpus')).toBe(other);
  });
});

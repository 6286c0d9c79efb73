import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ErrorCode } from '../core/index.js';
import { CitegeistError } from '../core/index.js';

/**
 * A SQLite error met while opening or writing the database at `path` (`what`: "corpus", "response
 * cache"), as the coded error of its true cause: a full disk (SQLITE_FULL) is DISK_FULL; a
 * read-only file, folder or file system (SQLITE_READONLY…, or SQLITE_CANTOPEN on an existing file)
 * `readOnly` (CORPUS_READ_ONLY for the corpus). Anything else is returned unchanged. Neither cause
 * is the fault of an input being read, so neither may be reported as an unreadable input or as a
 * file that is "not a citegeist corpus".
 */
export function sqliteWriteError(
  error: unknown,
  path: string,
  what: string,
  readOnly: ErrorCode = 'READ_ONLY_LOCATION',
): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const detail = error instanceof Error ? error.message : code;
  // SQLite reports a full disk as SQLITE_FULL, a write past the file-size limit (EFBIG) as a failed
  // write or a shared-memory file that cannot grow: all a disk that takes no more (a failing disk
  // would fail the same way, and the message says so).
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' || code === 'SQLITE_IOERR_SHMSIZE') {
    return new CitegeistError(
      'DISK_FULL',
      `The ${what} ${path} could not be written: ${code === 'SQLITE_FULL' ? 'the disk it is on is full' : 'a write failed (a full disk, a file-size limit, or a failing disk)'} (${code}: ${detail}). What was stored before is intact.`,
      `Free space on the disk that holds ${dirname(path)} (or give a path on another disk), then run the command again.`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_READONLY') || (code === 'SQLITE_CANTOPEN' && existsSync(path))) {
    return new CitegeistError(
      readOnly,
      `The ${what} ${path} cannot be written: the file, its folder ${dirname(path)} or their file system is read-only (${code}: ${detail}).`,
      `Make ${path} and its folder writable (chmod u+w), or give a path on a writable disk.`,
      { cause: error },
    );
  }
  return error;
}

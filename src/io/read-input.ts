import { isUtf8 } from 'node:buffer';
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { ErrorCode } from '../core/index.js';
import { CitegeistError } from '../core/index.js';

/**
 * The most any input file may hold before citegeist refuses to read it. Text inputs cannot be larger
 * in any case (V8 strings stop near 512 MiB, with an uncoded "Invalid string length"); a special file
 * such as /dev/zero or /dev/full would otherwise be read until memory runs out.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

export interface ReadOptions {
  /** What the file is, for messages ("dataset", "run file"). */
  what?: string;
  /** Refuse files larger than this (default MAX_INPUT_BYTES). */
  maxBytes?: number;
  /** The file is an output being resumed: it must be a regular file (not /dev/full, a FIFO, …). */
  output?: boolean;
}

/**
 * Opens `path` for reading, refuses a folder, runs `use` on the descriptor and closes it; every
 * system error becomes a coded CitegeistError naming the file.
 */
function withInputFile<T>(path: string, what: string, use: (fd: number, stat: Stats) => T): T {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw systemError(error, path, what, 'read');
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) {
      throw new CitegeistError('FILE_IS_DIRECTORY', `The ${what} ${path} is a folder.`, 'Give a file path.');
    }
    return use(fd, stat);
  } catch (error) {
    if (error instanceof CitegeistError) throw error;
    throw systemError(error, path, what, 'read');
  } finally {
    closeSync(fd);
  }
}

/** Everything left on `fd`, refusing more than `max` bytes (a device such as /dev/zero never ends). */
function readAllGuarded(fd: number, path: string, what: string, max: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    if (total > max) {
      throw new CitegeistError(
        'FILE_TOO_LARGE',
        `The ${what} ${path} holds more than ${formatBytes(max)}, the most citegeist reads from one input.`,
        'Split it into smaller files, or check that it is the file you meant (a device such as /dev/zero never ends).',
      );
    }
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads a whole file with a size guard: at most `maxBytes` are read, whatever the file claims to
 * be (devices and pipes report size 0), and every system error becomes a coded CitegeistError.
 */
export function readInputBytes(path: string, options: ReadOptions = {}): Buffer {
  const what = options.what ?? 'file';
  return withInputFile(path, what, (fd, stat) => {
    if (options.output && !stat.isFile()) {
      throw new CitegeistError(
        'OUTPUT_UNWRITABLE',
        `The ${what} ${path} is not a regular file (a device, pipe or socket), so it cannot hold an output.`,
        'Give a file path on a disk (not a special file such as /dev/full or /proc/…).',
      );
    }
    return readAllGuarded(fd, path, what, options.maxBytes ?? MAX_INPUT_BYTES);
  });
}

/**
 * The sha256 and size of a file's bytes (see `hashFileInto`).
 */
export function sha256OfFile(path: string, what = 'file'): { sha256: string; size: number } {
  const hash = createHash('sha256');
  const size = hashFileInto(hash, path, what);
  return { sha256: hash.digest('hex'), size };
}

/**
 * Feeds a file's bytes to `hash` in 1 MiB pieces and returns how many: any size of regular file (a
 * corpus of gigabytes) in bounded memory; a device or pipe, which may never end, under the size
 * guard of `readInputBytes`. System errors are coded as there.
 */
export function hashFileInto(hash: Hash, path: string, what = 'file'): number {
  return withInputFile(path, what, (fd, stat) => {
    if (!stat.isFile()) {
      const bytes = readAllGuarded(fd, path, what, MAX_INPUT_BYTES);
      hash.update(bytes);
      return bytes.length;
    }
    const chunk = Buffer.allocUnsafe(1 << 20);
    let size = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      size += n;
    }
    return size;
  });
}

/**
 * Reads a UTF-8 text file with the size guard: a leading byte-order mark is dropped (Windows editors
 * write one; every JSON and JSONL reader goes through here), and bytes that are not UTF-8 are refused
 * with the line they are on rather than silently replaced.
 */
export function readTextFile(path: string, what = 'file', options: Omit<ReadOptions, 'what'> = {}): string {
  const bytes = readInputBytes(path, { ...options, what });
  return decodeUtf8(bytes, `The ${what} ${path}`);
}

/**
 * Reads and parses a JSON file with the size guard: not JSON is INVALID_JSON naming the file and the
 * parse error, a value nested thousands of levels deep INPUT_TOO_DEEP.
 */
export function readJsonFile(path: string, what = 'file', options: Omit<ReadOptions, 'what'> = {}): unknown {
  const text = readTextFile(path, what, options);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const deep = tooDeepError(error, `The ${what} ${path}`);
    if (deep !== error) throw deep;
    throw new CitegeistError(
      'INVALID_JSON',
      `The ${what} ${path} is not valid JSON (${(error as Error).message}).`,
      'Check that the file is complete JSON (JSONL files need the matching command or option).',
    );
  }
}

/** Decodes UTF-8 (dropping a BOM), or throws NOT_UTF8 naming the first bad line of `source`. */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  if (!isUtf8(bytes)) {
    throw new CitegeistError(
      'NOT_UTF8',
      `${source} is not UTF-8 text (first bad byte on line ${firstBadLine(bytes)}).`,
      'Convert it to UTF-8 (e.g. `iconv -f latin1 -t utf-8`), or check that it is the file you meant.',
    );
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function firstBadLine(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      if (!isUtf8(bytes.subarray(start, i))) return line;
      line++;
      start = i + 1;
    }
  }
  return line;
}

const SYSTEM_CODES: Record<string, { read: ErrorCode; write: ErrorCode; why: string }> = {
  ENOENT: { read: 'FILE_NOT_FOUND', write: 'OUTPUT_UNWRITABLE', why: 'does not exist' },
  ENOTDIR: { read: 'FILE_NOT_FOUND', write: 'OUTPUT_UNWRITABLE', why: 'has a file where a folder should be' },
  EISDIR: { read: 'FILE_IS_DIRECTORY', write: 'FILE_IS_DIRECTORY', why: 'is a folder' },
  EACCES: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'is not accessible (permission denied)',
  },
  EPERM: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'is not accessible (operation not permitted)',
  },
  EROFS: { read: 'FILE_UNREADABLE', write: 'OUTPUT_UNWRITABLE', why: 'is on a read-only file system' },
  ENOSPC: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'cannot be written: no space left on the device',
  },
  EDQUOT: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'cannot be written: disk quota exceeded',
  },
  EFBIG: { read: 'FILE_TOO_LARGE', write: 'OUTPUT_UNWRITABLE', why: 'is too large for the file system' },
  EINVAL: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'is a special file that does not support this',
  },
  ENXIO: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'is a special file with no device behind it',
  },
  ELOOP: { read: 'FILE_UNREADABLE', write: 'OUTPUT_UNWRITABLE', why: 'is a loop of symbolic links' },
  ENAMETOOLONG: { read: 'FILE_NOT_FOUND', write: 'OUTPUT_UNWRITABLE', why: 'has a name that is too long' },
  EMFILE: {
    read: 'FILE_UNREADABLE',
    write: 'OUTPUT_UNWRITABLE',
    why: 'cannot be opened: too many open files',
  },
};

/**
 * Turns a Node system error (ENOENT, EISDIR, ENOSPC, …) met while reading or writing `path` into a
 * coded CitegeistError; anything else is returned unchanged.
 */
export function systemError(
  error: unknown,
  path: string | undefined,
  what: string,
  op: 'read' | 'write',
): unknown {
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  const known = typeof errno === 'string' ? SYSTEM_CODES[errno] : undefined;
  if (!known) return error;
  const target = path ?? (error as NodeJS.ErrnoException).path ?? '(unknown path)';
  const fix =
    op === 'read'
      ? known.read === 'FILE_NOT_FOUND'
        ? 'Check the path.'
        : 'Check the path and its permissions.'
      : 'Give a writable file path on a disk with free space (not a folder or a special file such as /proc or /dev/full).';
  return new CitegeistError(
    op === 'read' ? known.read : known.write,
    `The ${what} ${target} ${known.why} (${errno}${op === 'write' ? ' while writing' : ''}).`,
    fix,
    { cause: error },
  );
}

function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${Math.round(n / (1 << 20))} MiB` : `${n} bytes`;
}

/**
 * A stack overflow or parser nesting limit met while reading `source` (a JSON or XML value nested
 * thousands of levels deep) as a coded INPUT_TOO_DEEP; anything else is returned unchanged.
 */
export function tooDeepError(error: unknown, source: string): unknown {
  const message = error instanceof Error ? error.message : '';
  const deep =
    (error instanceof RangeError && /call stack/i.test(message)) ||
    /nested tags exceeded|too deep/i.test(message);
  if (!deep) return error;
  return new CitegeistError(
    'INPUT_TOO_DEEP',
    `${source} nests its values or elements deeper than citegeist follows (${message}).`,
    'Check that it is the file you meant: papers and rows nest a few levels deep, not thousands.',
    { cause: error },
  );
}

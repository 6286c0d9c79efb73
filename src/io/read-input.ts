import { isUtf8 } from 'node:buffer';
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import type { ErrorCode } from '../core/index.js';
import { CitegeistError } from '../core/index.js';

/**
 * The most any input file (or one row of a large JSON or JSONL file) may hold before citegeist
 * refuses to read it: V8's longest string (0x1fffffe8 characters, just under 512 MiB), since text
 * inputs cannot be larger in any case (past it V8 throws an uncoded "Cannot create a string longer
 * than …"), and a UTF-8 byte is at most one character.
 */
export const MAX_INPUT_BYTES = 0x1fffffe8;

/** The path that means standard input, for the commands that read an input through here. */
export const STDIN_PATH = '-';

export interface ReadOptions {
  /** What the file is, for messages ("dataset", "run file"). */
  what?: string;
  /** Refuse files larger than this (default MAX_INPUT_BYTES). */
  maxBytes?: number;
  /** The file is an output being resumed: it must be a regular file (not /dev/full, a FIFO, …). */
  output?: boolean;
}

/**
 * Checks, before anything opens it, that `path` is a regular file (links followed): a folder is
 * FILE_IS_DIRECTORY; a FIFO, socket or device FILE_NOT_REGULAR (an output being resumed:
 * OUTPUT_UNWRITABLE), since opening a FIFO blocks until a writer comes, maybe forever, and a device
 * such as /dev/zero never ends. Every input file citegeist reads passes here first. Standard input
 * is read only when `-` is given (`STDIN_PATH`).
 */
export function assertRegularInput(path: string, what: string, options: { output?: boolean } = {}): Stats {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    throw systemError(error, path, what, 'read');
  }
  if (stat.isDirectory()) {
    throw new CitegeistError('FILE_IS_DIRECTORY', `The ${what} ${path} is a folder.`, 'Give a file path.');
  }
  if (!stat.isFile()) refuseSpecial(stat, path, what, options);
  return stat;
}

function refuseSpecial(stat: Stats, path: string, what: string, options: { output?: boolean }): never {
  if (options.output) {
    throw new CitegeistError(
      'OUTPUT_UNWRITABLE',
      `The ${what} ${path} is not a regular file (a device, pipe or socket), so it cannot hold an output.`,
      'Give a file path on a disk (not a special file such as /dev/full or /proc/…).',
    );
  }
  throw new CitegeistError(
    'FILE_NOT_REGULAR',
    `The ${what} ${path} is ${specialKind(stat)}, not a regular file; citegeist reads inputs only from files (a pipe may never end or never start).`,
    'Save the data to a file and give its path (commands that read standard input take `-`).',
  );
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/**
 * Opens `path` for reading once `assertRegularInput` has passed it (`-`: standard input, not
 * opened or closed here), runs `use` on the descriptor and closes it; every system error becomes a
 * coded CitegeistError naming the file.
 */
function withInputFile<T>(
  path: string,
  what: string,
  use: (fd: number, stat: Stats | null) => T,
  options: { output?: boolean } = {},
): T {
  if (path === STDIN_PATH && !options.output) return use(0, null);
  assertRegularInput(path, what, options);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw systemError(error, path, what, 'read');
  }
  try {
    const stat = fstatSync(fd);
    // Replaced between the check and the open: check again, now on what was opened.
    if (!stat.isFile()) refuseSpecial(stat, path, what, options);
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
  return withInputFile(
    path,
    what,
    (fd) => readAllGuarded(fd, path, what, options.maxBytes ?? MAX_INPUT_BYTES),
    options.output ? { output: true } : {},
  );
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
 * corpus of gigabytes) in bounded memory; standard input (`-`), which may never end, under the size
 * guard of `readInputBytes`. System errors are coded as there.
 */
export function hashFileInto(hash: Hash, path: string, what = 'file'): number {
  return withInputFile(path, what, (fd, stat) => {
    if (!stat) {
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
  EROFS: { read: 'FILE_UNREADABLE', write: 'READ_ONLY_LOCATION', why: 'is on a read-only file system' },
  ENOSPC: {
    read: 'FILE_UNREADABLE',
    write: 'DISK_FULL',
    why: 'cannot be written: no space left on the device',
  },
  EDQUOT: {
    read: 'FILE_UNREADABLE',
    write: 'DISK_FULL',
    why: 'cannot be written: disk quota exceeded',
  },
  EFBIG: {
    read: 'FILE_TOO_LARGE',
    write: 'DISK_FULL',
    why: 'cannot grow: larger than the file system or the file-size limit (ulimit -f) allows',
  },
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
  const code = op === 'read' ? known.read : known.write;
  const fix =
    op === 'read'
      ? known.read === 'FILE_NOT_FOUND'
        ? 'Check the path.'
        : 'Check the path and its permissions.'
      : code === 'DISK_FULL'
        ? `Free space on the disk that holds ${target} (or write to another disk), then run the command again: it resumes where it stopped.`
        : code === 'READ_ONLY_LOCATION'
          ? `Write to a folder on a writable disk (another --out), or remount the file system that holds ${target} read-write.`
          : 'Give a writable file path (not a folder or a special file such as /proc or /dev/full), in a folder you may write to.';
  return new CitegeistError(
    code,
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

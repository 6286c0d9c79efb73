/**
 * Reads the rows of a large JSON or JSONL file without holding its text: the file is read in
 * chunks and each row's bytes are decoded and parsed on their own, so memory holds one chunk and
 * the rows the caller keeps (not the whole text as one string, which V8 stores with two bytes per
 * character as soon as one character needs it, and whose parsed strings then do too). Each row's
 * byte range is reported, so a caller can drop the row and read it again later (`readJsonAt`).
 *
 * Layouts: a JSON list (`[row, …]`), an object whose `rows` key holds the list (the published
 * ResearchQA files; its other keys are parsed and returned), or one row per line (JSONL).
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CitegeistError, describeLocation, type ErrorLocation } from '../core/index.js';
import { jsonSyntaxProblem } from './json-syntax.js';
import type { JsonlLine } from './jsonl.js';
import {
  assertRegularInput,
  decodeUtf8,
  MAX_INPUT_BYTES,
  readInputBytes,
  STDIN_PATH,
  systemError,
} from './read-input.js';

/** Where a row is in its file. */
export interface RowPlace {
  /** 0-based position in the list (JSON), or 1-based line number (JSONL). */
  index: number;
  /** Byte offset and length of the row's text. */
  offset: number;
  length: number;
}

export interface JsonRowsFile {
  layout: 'list' | 'envelope' | 'lines';
  /** The other top-level fields of an envelope, parsed (empty otherwise). */
  fields: Record<string, unknown>;
  /** Whether an envelope had a `rows` list (false: a JSON object without one). */
  hasRows: boolean;
  /** The sha256 of the file's bytes, hashed as they were read (a manifest need not read it again). */
  sha256: string;
}

/** The file's JSON does not parse (a structural error at a byte offset). */
export class JsonSyntaxError extends Error {}

const CHUNK = 1 << 22;
const [QUOTE, BACKSLASH, LF, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, COMMA] = [
  0x22, 0x5c, 0x0a, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c,
];

/**
 * A file read forward in chunks; `byte(i)` for absolute offsets at or after the current chunk. A
 * file that is not a regular one (a pipe, a device: its size is unknown) is read whole first, under
 * the size guard of `readInputBytes`. Text is decoded only from valid UTF-8 (else NOT_UTF8 naming
 * the line), as `readTextFile` decodes a whole file.
 */
class ChunkedFile {
  /** One buffer, refilled: a new one per chunk would leave the garbage collector ~1 per 4 MB read. */
  private readonly buffer: Buffer;
  private chunk: Buffer = Buffer.alloc(0);
  private start = 0;
  readonly size: number;
  private readonly fd: number;
  /** The whole content of a file that is not a regular one. */
  private readonly whole: Buffer | null;
  /** The bytes [0, hashed) are in `hash`: each chunk is hashed the first time it is read. */
  private readonly hash = createHash('sha256');
  private hashed = 0;

  constructor(
    input: Input,
    private readonly source: { path: string; what: string },
    private readonly chunkSize = CHUNK,
  ) {
    this.fd = input.fd;
    this.whole = input.whole;
    this.size = input.size;
    this.buffer = this.whole ?? Buffer.allocUnsafe(Math.min(chunkSize, this.size));
  }

  /** Makes [from, from + chunkSize) (or to the end) the current chunk. */
  private load(from: number): void {
    if (this.whole) {
      this.chunk = this.whole;
      this.start = 0;
      return;
    }
    const length = Math.min(this.chunkSize, this.size - from);
    let read = 0;
    while (read < length) read += readSync(this.fd, this.buffer, read, length - read, from + read);
    this.chunk = this.buffer.subarray(0, length);
    this.start = from;
    if (from <= this.hashed && from + length > this.hashed) {
      this.hash.update(this.chunk.subarray(this.hashed - from));
      this.hashed = from + length;
    }
  }

  /** The sha256 of the whole file: the chunks not read yet are read for it. */
  sha256(): string {
    if (this.whole) return createHash('sha256').update(this.whole).digest('hex');
    while (this.hashed < this.size) this.load(this.hashed);
    return this.hash.digest('hex');
  }

  byte(at: number): number {
    if (at < this.start || at >= this.start + this.chunk.length) this.load(at);
    return this.chunk[at - this.start]!;
  }

  /** The next byte equal to `value` at or after `from` (or -1), scanning natively. */
  find(value: number, from: number): number {
    let at = from;
    while (at < this.size) {
      if (at < this.start || at >= this.start + this.chunk.length) this.load(at);
      const found = this.chunk.indexOf(value, at - this.start);
      if (found >= 0) return this.start + found;
      at = this.start + this.chunk.length;
    }
    return -1;
  }

  /** The text of [from, to), decoded as UTF-8 (NOT_UTF8 when it is not UTF-8). */
  text(from: number, to: number): string {
    if (to - from > MAX_INPUT_BYTES) this.rowTooLarge(from, to - from);
    const bytes =
      from >= this.start && to <= this.start + this.chunk.length
        ? this.chunk.subarray(from - this.start, to - this.start)
        : readBytes(this.fd, from, to - from);
    if (!isUtf8(bytes)) this.notUtf8();
    return bytes.toString('utf8');
  }

  /** One row longer than a string can be: FILE_TOO_LARGE naming where it starts. */
  private rowTooLarge(at: number, length: number): never {
    const { path, what } = this.source;
    throw new CitegeistError(
      'FILE_TOO_LARGE',
      `The ${what} ${path} has one row of ${Math.round(length / (1 << 20))} MiB (from byte ${at}), more than citegeist reads as one row (${Math.floor(MAX_INPUT_BYTES / (1 << 20))} MiB).`,
      'Check that it is the file you meant: a row is one question, answer or grade, not hundreds of megabytes.',
    );
  }

  /** Throws NOT_UTF8 naming the first line of the file that is not UTF-8 (read again: a rare path). */
  private notUtf8(): never {
    const { path, what } = this.source;
    const all = this.whole ?? readBytes(this.fd, 0, this.size);
    decodeUtf8(all, `The ${what} ${path}`);
    throw new CitegeistError(
      'FILE_CHANGED',
      `The ${what} ${path} held bytes that are not UTF-8, then did not when it was read again.`,
      'Keep the file as it is while the command runs (write new data to another file), then run the command again.',
      { where: { file: path } },
    );
  }
}

/**
 * A file opened to read: a regular file is read in place (`fd`); standard input (`-`), which cannot
 * be read twice, is read whole once under the size guard of `readInputBytes` and kept for the
 * process (`whole`, `fd` -1), since a file is read more than once here (its layout, its rows, a row
 * again when it is graded). Anything else that is not a regular file (a FIFO, a device) is refused
 * before it is opened (`assertRegularInput`). Errors are coded as `readTextFile` codes them.
 */
interface Input {
  fd: number;
  whole: Buffer | null;
  size: number;
}

function openInput(path: string, what: string): Input {
  if (path === STDIN_PATH) {
    stdinWhole ??= readInputBytes(path, { what });
    return { fd: -1, whole: stdinWhole, size: stdinWhole.length };
  }
  let fd: number | undefined;
  try {
    assertRegularInput(path, what);
    fd = openSync(path, 'r');
    return { fd, whole: null, size: fstatSync(fd).size };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw systemError(error, path, what, 'read');
  }
}

function closeInput(input: Input): void {
  if (input.fd >= 0) closeSync(input.fd);
}

let stdinWhole: Buffer | undefined;

function readBytes(fd: number, offset: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, offset + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** The end (exclusive) of the string whose opening quote is at `at`. */
function stringEnd(f: ChunkedFile, at: number): number {
  let i = at + 1;
  for (;;) {
    const q = f.find(QUOTE, i);
    if (q < 0) throw new JsonSyntaxError(`unterminated string starting at byte ${at}`);
    let slashes = 0;
    while (q - 1 - slashes > at && f.byte(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** The end (exclusive) of the JSON value starting at `at` (not whitespace), found structurally. */
function valueEnd(f: ChunkedFile, at: number): number {
  const first = f.byte(at);
  if (first === QUOTE) return stringEnd(f, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number or a literal: up to the next structural character or space.
    let i = at;
    while (i < f.size) {
      const b = f.byte(i);
      if (b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || isSpace(b)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < f.size) {
    const b = f.byte(i);
    if (b === QUOTE) {
      i = stringEnd(f, i);
      continue;
    }
    if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  throw new JsonSyntaxError(`unterminated value starting at byte ${at}`);
}

function skipSpace(f: ChunkedFile, at: number): number {
  let i = at;
  while (i < f.size && isSpace(f.byte(i))) i++;
  return i;
}

/** Skips a UTF-8 byte order mark. */
function contentStart(f: ChunkedFile): number {
  return f.size >= 3 && f.byte(0) === 0xef && f.byte(1) === 0xbb && f.byte(2) === 0xbf ? 3 : 0;
}

/** Calls `visit` for each element of the list starting at `at` ('['); returns the end of the list. */
function listElements(f: ChunkedFile, at: number, visit: (text: string, place: RowPlace) => void): number {
  let i = skipSpace(f, at + 1);
  let index = 0;
  if (f.byte(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const end = valueEnd(f, i);
    visit(f.text(i, end), { index: index++, offset: i, length: end - i });
    i = skipSpace(f, end);
    const b = i < f.size ? f.byte(i) : -1;
    if (b === CLOSE_BRACKET) return i + 1;
    if (b !== COMMA) throw new JsonSyntaxError(`expected "," or "]" at byte ${i}`);
    i = skipSpace(f, i + 1);
  }
}

/** JSONL: each non-blank line (its `\r` dropped) is a row; `index` is the 1-based line number. */
function lines(f: ChunkedFile, start: number, visit: (text: string, place: RowPlace) => void): void {
  let i = start;
  let line = 1;
  while (i < f.size) {
    let end = f.find(LF, i);
    const next = end < 0 ? f.size : end + 1;
    if (end < 0) end = f.size;
    let to = end;
    if (to > i && f.byte(to - 1) === 0x0d) to--;
    let blank = true;
    for (let k = i; k < to && blank; k++) blank = isSpace(f.byte(k));
    if (!blank) visit(f.text(i, to), { index: line, offset: i, length: to - i });
    i = next;
    line++;
  }
}

/**
 * Reads the rows of `path` in the given layout: `'lines'` (JSONL), or `'json'` (a list, or an
 * object with a `rows` list; anything else is a `JsonSyntaxError` or, for an object without
 * `rows`, `hasRows: false`). `visit` gets each row's text and place, in file order.
 */
export function scanJsonRows(
  path: string,
  as: 'json' | 'lines',
  visit: (text: string, place: RowPlace) => void,
  what = 'file',
  chunkSize = CHUNK,
): JsonRowsFile {
  const input = openInput(path, what);
  try {
    const f = new ChunkedFile(input, { path, what }, chunkSize);
    const start = contentStart(f);
    if (as === 'lines') {
      lines(f, start, visit);
      return { layout: 'lines', fields: {}, hasRows: false, sha256: f.sha256() };
    }
    const at = skipSpace(f, start);
    const first = at < f.size ? f.byte(at) : -1;
    let end: number;
    let result: JsonRowsFile;
    if (first === OPEN_BRACKET) {
      end = listElements(f, at, visit);
      result = { layout: 'list', fields: {}, hasRows: true, sha256: '' };
    } else if (first === OPEN_BRACE) {
      result = { layout: 'envelope', fields: {}, hasRows: false, sha256: '' };
      end = envelope(f, at, result, visit);
    } else {
      throw new JsonSyntaxError(at < f.size ? `unexpected byte at ${at}` : 'the file is empty');
    }
    if (skipSpace(f, end) < f.size)
      throw new JsonSyntaxError(`unexpected text after the JSON at byte ${end}`);
    result.sha256 = f.sha256();
    return result;
  } finally {
    closeInput(input);
  }
}

/** An object's keys: `rows` (a list) streamed to `visit`, the others parsed into `out.fields`. */
function envelope(
  f: ChunkedFile,
  at: number,
  out: JsonRowsFile,
  visit: (text: string, place: RowPlace) => void,
): number {
  let i = skipSpace(f, at + 1);
  if (f.byte(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (f.byte(i) !== QUOTE) throw new JsonSyntaxError(`expected a key at byte ${i}`);
    const keyEnd = stringEnd(f, i);
    const key = JSON.parse(f.text(i, keyEnd)) as string;
    i = skipSpace(f, keyEnd);
    if (f.byte(i) !== 0x3a) throw new JsonSyntaxError(`expected ":" at byte ${i}`);
    i = skipSpace(f, i + 1);
    if (key === 'rows' && f.byte(i) === OPEN_BRACKET) {
      i = listElements(f, i, visit);
      out.hasRows = true;
    } else {
      const end = valueEnd(f, i);
      try {
        out.fields[key] = JSON.parse(f.text(i, end));
      } catch (error) {
        throw new JsonSyntaxError(`${(error as Error).message} (the value of "${key}")`);
      }
      i = end;
    }
    i = skipSpace(f, i);
    const b = i < f.size ? f.byte(i) : -1;
    if (b === CLOSE_BRACE) return i + 1;
    if (b !== COMMA) throw new JsonSyntaxError(`expected "," or "}" at byte ${i}`);
    i = skipSpace(f, i + 1);
  }
}

/** The parsed lines of a JSONL file, as `parseJsonl` gives them, read without holding its text. */
export function readJsonlLines(path: string, what = 'file'): JsonlLine[] {
  return readJsonlFile(path, what).lines;
}

/** `readJsonlLines` with the sha256 of the file's bytes, hashed as they were read. */
export function readJsonlFile(path: string, what = 'file'): { lines: JsonlLine[]; sha256: string } {
  const lines: JsonlLine[] = [];
  const { sha256 } = scanJsonRows(
    path,
    'lines',
    (text, { index: line }) => {
      if (text.trim() === '') return;
      try {
        lines.push({ line, ok: true, value: JSON.parse(text) });
      } catch (error) {
        lines.push({ line, ok: false, error: jsonSyntaxProblem(error, text), text });
      }
    },
    what,
  );
  return { lines, sha256 };
}

/** The first character of a file's content (after a byte order mark and whitespace), or ''. */
export function firstContentChar(path: string, what = 'file'): string {
  const input = openInput(path, what);
  try {
    const f = new ChunkedFile(input, { path, what });
    const at = skipSpace(f, contentStart(f));
    return at < f.size ? String.fromCharCode(f.byte(at)) : '';
  } finally {
    closeInput(input);
  }
}

/** An open file to read rows from by place, closed with `close()`. */
export class RowFile {
  private input: Input | null;

  constructor(readonly path: string) {
    try {
      this.input = openInput(path, 'file');
    } catch (error) {
      throw new CitegeistError(
        'FILE_UNREADABLE',
        `The file ${path} could not be read again (${(error as Error).message}).`,
        'Keep the file in place while the command runs.',
        { cause: error },
      );
    }
  }

  /** The text of a row (checked as UTF-8 when it was first read). */
  text(place: Pick<RowPlace, 'offset' | 'length'>): string {
    const input = this.input;
    if (input === null)
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `RowFile ${this.path} is closed.`,
        'Read rows before close() (an index holds the file open until then).',
      );
    if (input.whole) return input.whole.toString('utf8', place.offset, place.offset + place.length);
    return readBytes(input.fd, place.offset, place.length).toString('utf8');
  }

  close(): void {
    if (this.input) closeInput(this.input);
    this.input = null;
  }
}

/**
 * FILE_CHANGED for a row indexed on a first pass that no longer reads as it did (the file was
 * rewritten while a command held its index): at its line (JSONL) or position (a JSON list).
 */
export function rowChangedError(
  path: string,
  place: RowPlace,
  lines: boolean,
  detail: string,
): CitegeistError {
  const where: ErrorLocation = lines ? { file: path, line: place.index } : { file: path, row: place.index };
  return new CitegeistError(
    'FILE_CHANGED',
    `${path} changed while it was graded (${describeLocation(where)}): ${detail}`,
    'Keep the file as it is while the command runs (write new data to another file), then grade again.',
    { where },
  );
}

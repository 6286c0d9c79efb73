import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  openSync,
  readSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { CitegeistError } from '../../core/index.js';

/**
 * A file read by pages (`fs.readSync` at an offset) instead of whole: an index file is opened in
 * microseconds whatever its size, only the bytes a query touches are read, and no file meets
 * Node's 2 GiB limit on `readFileSync`. Typed arrays come back in fresh, aligned buffers.
 */
export class PageFile {
  readonly size: number;
  private fd: number;

  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, 'r');
    } catch (error) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `The index file ${path} cannot be opened (${error instanceof Error ? error.message : String(error)}).`,
        'Rebuild the index with `citegeist index --rebuild`.',
        { cause: error },
      );
    }
    this.size = fstatSync(this.fd).size;
  }

  /** `length` bytes from `offset` (refused past the end: a truncated file). */
  read(offset: number, length: number): Buffer {
    if (offset < 0 || offset + length > this.size) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `The index file ${this.path} is truncated (${length} bytes at ${offset} of ${this.size}).`,
        'Rebuild the index with `citegeist index --rebuild`.',
      );
    }
    const buf = Buffer.allocUnsafeSlow(length);
    let done = 0;
    while (done < length) {
      // One readSync call reads at most 2 GiB; loop for anything larger.
      const n = readSync(this.fd, buf, done, Math.min(length - done, 1 << 30), offset + done);
      if (n === 0) break;
      done += n;
    }
    return buf;
  }

  uint32(offset: number, count: number): Uint32Array {
    const b = this.read(offset, count * 4);
    return new Uint32Array(b.buffer, b.byteOffset, count);
  }

  float32(offset: number, count: number): Float32Array {
    const b = this.read(offset, count * 4);
    return new Float32Array(b.buffer, b.byteOffset, count);
  }

  float64(offset: number, count: number): Float64Array {
    const b = this.read(offset, count * 8);
    return new Float64Array(b.buffer, b.byteOffset, count);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/** Turns a write failure into a coded error: a full disk is named as such (the caller cleans up). */
export function writeFailure(path: string, error: unknown): CitegeistError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new CitegeistError(
      'INDEX_DISK_FULL',
      `The disk filled up while writing ${path}; the index being built was removed and the previous one is left as it was.`,
      'Free disk space (the index needs about as much as the corpus), then run `citegeist index` again.',
      { cause: error },
    );
  }
  return new CitegeistError(
    'INDEX_WRITE_FAILED',
    `Writing ${path} failed (${error instanceof Error ? error.message : String(error)}); the previous index is left as it was.`,
    'Check the folder and its permissions, then run `citegeist index` again.',
    { cause: error },
  );
}

/** Bytes read per step when a file is appended to another. */
const COPY_CHUNK = 1 << 22;

/**
 * Appends to a file through a buffer with `fs.writeSync`, so a large index file is written as it
 * is produced, never held whole (and never joined into one string). Tracks the byte position.
 */
export class AppendFile {
  private fd: number;
  private readonly buf: Buffer;
  private used = 0;
  /** Bytes written so far (flushed or buffered). */
  position = 0;

  /** `mode` `a` appends to an existing file (its length is the starting position). */
  constructor(
    readonly path: string,
    bufferSize = 1 << 20,
    mode: 'w' | 'a' = 'w',
  ) {
    try {
      this.fd = openSync(path, mode);
      if (mode === 'a') this.position = fstatSync(this.fd).size;
    } catch (error) {
      throw writeFailure(path, error);
    }
    this.buf = Buffer.allocUnsafe(bufferSize);
  }

  write(data: Uint8Array): void {
    if (data.length > this.buf.length - this.used) this.flush();
    if (data.length >= this.buf.length) this.writeNow(data);
    else {
      this.buf.set(data, this.used);
      this.used += data.length;
    }
    this.position += data.length;
  }

  writeString(s: string): void {
    // Straight into the buffer when it surely fits (UTF-8 takes at most 3 bytes per UTF-16 unit):
    // no Buffer per string (a segment writes one line per term, millions of them).
    if (3 * s.length <= this.buf.length - this.used) {
      const n = this.buf.write(s, this.used, 'utf8');
      this.used += n;
      this.position += n;
    } else this.write(Buffer.from(s, 'utf8'));
  }

  /** A typed array's bytes (little-endian, as on every platform Node runs on). */
  writeArray(a: ArrayBufferView): void {
    this.write(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  private writeNow(data: Uint8Array): void {
    try {
      let done = 0;
      while (done < data.length) done += writeSync(this.fd, data, done, data.length - done);
    } catch (error) {
      throw writeFailure(this.path, error);
    }
  }

  /**
   * Appends the whole of file `path` (read forward in chunks), optionally cut to its first
   * `length` bytes: how an index's shards are joined into one file.
   */
  appendFile(path: string, length?: number): void {
    const source = new PageFile(path);
    try {
      const end = length ?? source.size;
      for (let at = 0; at < end; at += COPY_CHUNK)
        this.write(source.read(at, Math.min(COPY_CHUNK, end - at)));
    } finally {
      source.close();
    }
  }

  flush(): void {
    if (this.used > 0) this.writeNow(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    if (this.fd < 0) return;
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
  }

  /** Closes without flushing (after a failure: the file is removed with its folder). */
  abandon(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/**
 * A copy of `source` at `target` (a reflink where the file system has them), cut to its first
 * `length` bytes when given, opened for appending: how an index update extends an earlier
 * generation's file without touching it (the earlier generation stays a usable index).
 */
export function appendToCopy(source: string, target: string, length?: number): AppendFile {
  try {
    copyFileSync(source, target, constants.COPYFILE_FICLONE);
    if (length !== undefined) truncateSync(target, length);
  } catch (error) {
    throw writeFailure(target, error);
  }
  return new AppendFile(target, undefined, 'a');
}

/**
 * Reads a file forward through a buffer: lines or fixed-size records, for the segment merge and
 * for streaming passages out (never the whole file in memory).
 */
export class SequentialReader {
  private readonly file: PageFile;
  private buf: Buffer = Buffer.alloc(0);
  private at = 0;
  private fileAt = 0;

  constructor(
    path: string,
    private readonly chunk = 1 << 20,
  ) {
    this.file = new PageFile(path);
  }

  private fill(need: number): boolean {
    if (this.buf.length - this.at >= need) return true;
    const rest = this.buf.subarray(this.at);
    const more = Math.min(Math.max(this.chunk, need - rest.length), this.file.size - this.fileAt);
    if (more <= 0) return this.buf.length - this.at >= need;
    const read = this.file.read(this.fileAt, more);
    this.fileAt += more;
    this.buf = rest.length ? Buffer.concat([rest, read]) : read;
    this.at = 0;
    return this.buf.length >= need;
  }

  /** The next line without its newline, or null at the end. */
  line(): string | null {
    for (;;) {
      const nl = this.buf.indexOf(10, this.at);
      if (nl >= 0) {
        const s = this.buf.toString('utf8', this.at, nl);
        this.at = nl + 1;
        return s;
      }
      const before = this.buf.length - this.at;
      if (!this.fill(before + 1)) {
        if (this.buf.length > this.at) {
          const s = this.buf.toString('utf8', this.at);
          this.at = this.buf.length;
          return s;
        }
        return null;
      }
    }
  }

  /** The next `count` uint32 values (a copy). */
  uint32(count: number): Uint32Array {
    const out = new Uint32Array(count);
    this.bytesInto(new Uint8Array(out.buffer), count);
    return out;
  }

  /** The next `count` float64 values (a copy). */
  float64(count: number): Float64Array {
    const out = new Float64Array(count);
    this.bytesInto(new Uint8Array(out.buffer), count);
    return out;
  }

  private bytesInto(out: Uint8Array, count: number): void {
    if (!this.fill(out.length)) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `${this.file.path} ends before the ${count} values it should hold (truncated).`,
        'Rebuild the index with `citegeist index --rebuild`.',
        { where: { file: this.file.path } },
      );
    }
    out.set(this.buf.subarray(this.at, this.at + out.length));
    this.at += out.length;
  }

  close(): void {
    this.file.close();
  }
}

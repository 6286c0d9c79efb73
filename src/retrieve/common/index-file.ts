import { readFileSync } from 'node:fs';
import { CitegeistError } from '../../core/index.js';

/**
 * The on-disk layout shared by every persisted index: an ASCII magic line, the byte length of a
 * JSON header (uint32 LE), the header, zero padding to a 4-byte boundary, then the typed arrays.
 * One reader checks the magic, the header and the format version, so a truncated or foreign file
 * gives INDEX_CORRUPT / INDEX_VERSION instead of a raw parse error.
 */
export function encodeIndexFile(magic: string, header: object, arrays: ArrayBufferView[]): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(magic.length + 4);
  head.write(magic, 0, 'latin1');
  head.writeUInt32LE(json.length, magic.length);
  const pad = (4 - ((head.length + json.length) % 4)) % 4;
  const bodies = arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  return Buffer.concat([head, json, Buffer.alloc(pad), ...bodies]);
}

export interface DecodedIndexFile<H> {
  header: H;
  /** Reads the next `n` float32 values (a copy). */
  float32(n: number): Float32Array;
  /** Reads the next `n` uint32 values (a copy). */
  uint32(n: number): Uint32Array;
}

export function decodeIndexFile<H extends { format: number }>(
  buf: Buffer,
  options: { magic: string; kind: string; source: string; format: number },
): DecodedIndexFile<H> {
  const { magic, kind, source, format } = options;
  const corrupt = (why: string) =>
    new CitegeistError(
      'INDEX_CORRUPT',
      `${source} is not a citegeist ${kind} (${why}).`,
      'Rebuild it with `citegeist index --rebuild`.',
    );
  if (buf.length < magic.length + 4 || buf.toString('latin1', 0, magic.length) !== magic) {
    throw corrupt('wrong file signature');
  }
  const length = buf.readUInt32LE(magic.length);
  const start = magic.length + 4;
  if (start + length > buf.length) throw corrupt('the file is truncated');
  let header: H;
  try {
    header = JSON.parse(buf.toString('utf8', start, start + length)) as H;
  } catch {
    throw corrupt('its header is not valid JSON');
  }
  if (header.format !== format) {
    throw new CitegeistError(
      'INDEX_VERSION',
      `${source} has format ${header.format}; this version reads ${format}.`,
      'Rebuild it with `citegeist index --rebuild`.',
    );
  }
  let at = start + length;
  at += (4 - (at % 4)) % 4;
  const take = (n: number): Uint8Array => {
    if (at + n * 4 > buf.length) throw corrupt('the file is truncated');
    // Copy into a fresh, aligned ArrayBuffer: the Buffer may share a pool with other data.
    const bytes = new Uint8Array(n * 4);
    bytes.set(buf.subarray(at, at + n * 4));
    at += n * 4;
    return bytes;
  };
  return {
    header,
    float32: (n) => new Float32Array(take(n).buffer),
    uint32: (n) => new Uint32Array(take(n).buffer),
  };
}

/** A JSON file of an index folder (header, block index, paper ids): INDEX_CORRUPT when unreadable. */
export function readIndexJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw new CitegeistError(
      'INDEX_CORRUPT',
      `${path} is missing or not valid JSON.`,
      'Rebuild the index with `citegeist index --rebuild`.',
      { cause: error },
    );
  }
}

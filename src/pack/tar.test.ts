import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTarGz, unsafeEntryName, writeTarGz } from './tar.js';

const limits = { maxBytes: 1 << 20, maxEntries: 100 };
const bytes = (s: string) => Buffer.from(s);

/** A raw ustar header block (what a hostile archive could hold), checksum filled in. */
function rawHeader(name: string, type: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0);
  h.write('0000644\0', 100);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}
const archive = (...blocks: Buffer[]) => gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));

describe('pack archives', () => {
  it('round-trips entries byte for byte, long names included, and the same entries give the same bytes', () => {
    const long = `files/${'a'.repeat(90)}/${'b'.repeat(64)}`;
    const entries = [
      { path: 'pack.json', data: bytes('{"x":1}\n') },
      { path: long, data: new Uint8Array(1500).fill(7) },
      { path: 'empty', data: new Uint8Array() },
    ];
    const gz = writeTarGz(entries, 1_700_000_000);
    expect(writeTarGz(entries, 1_700_000_000).equals(gz)).toBe(true);
    const back = readTarGz('t.cgpack', gz, limits);
    expect(back.map((e) => [e.path, Buffer.from(e.data).toString('hex')])).toEqual(
      entries.map((e) => [e.path, Buffer.from(e.data).toString('hex')]),
    );
  });

  it.each([
    ['../escape', /"\.\." or "\." segment/],
    ['files/../../etc/passwd', /"\.\." or "\." segment/],
    ['/etc/passwd', /absolute path/],
    ['C:/x', /absolute path/],
    ['a\\b', /backslash/],
    ['a\u0000b', /control character/],
    ['a//b', /empty path segment/],
  ])('names %j unsafe', (name, why) => {
    expect(unsafeEntryName(name)).toMatch(why);
    expect(() => writeTarGz([{ path: name, data: bytes('x') }], 0)).toThrow(/has /);
  });

  it.each([
    ['a symbolic link', rawHeader('link', '2', 0), /entry 1 \("link"\) is a symbolic link/],
    ['a hard link', rawHeader('hard', '1', 0), /is a hard link/],
    ['a character device', rawHeader('dev', '3', 0), /is a character device/],
    ['a FIFO', rawHeader('fifo', '6', 0), /is a FIFO/],
    ['an extended header', rawHeader('pax', 'x', 0), /is an extended header/],
    ['a path climbing out', rawHeader('../../x', '0', 0), /"\.\." or "\." segment/],
    ['an absolute path', rawHeader('/tmp/x', '0', 0), /absolute path/],
  ])('refuses %s before extracting anything', (_what, header, message) => {
    const gz = archive(header);
    expect(() => readTarGz('evil.cgpack', gz, limits)).toThrow(message);
    try {
      readTarGz('evil.cgpack', gz, limits);
    } catch (error) {
      expect((error as { code: string }).code).toBe('PACK_INVALID');
    }
  });

  it('refuses a damaged header, a truncated archive, a duplicated entry and a file that is not gzip', () => {
    const good = writeTarGz([{ path: 'a', data: bytes('hello') }], 0);
    const tar = gunzipSync(good);
    const damaged = Buffer.from(tar);
    damaged[10] = 0x41;
    expect(() => readTarGz('d', gzipSync(damaged), limits)).toThrow(/checksum does not match/);
    expect(() => readTarGz('t', gzipSync(tar.subarray(0, 512 + 2)), limits)).toThrow(/truncated/);
    expect(() => readTarGz('t', gzipSync(tar.subarray(0, 1024)), limits)).toThrow(/end-of-archive|truncated/);
    const dup = archive(rawHeader('a', '0', 0), rawHeader('a', '0', 0));
    expect(() => readTarGz('dup', dup, limits)).toThrow(/appears twice/);
    expect(() => readTarGz('n', bytes('not gzip at all'), limits)).toThrow(/not a gzip'd study pack/);
  });

  it('stops a decompression bomb at the byte limit with PACK_TOO_LARGE', () => {
    const bomb = gzipSync(Buffer.alloc(64 << 20)); // 64 MiB of zeros in about 64 KiB
    expect(bomb.length).toBeLessThan(200_000);
    let code = '';
    try {
      readTarGz('bomb.cgpack', bomb, { maxBytes: 1 << 20, maxEntries: 10 });
    } catch (error) {
      code = (error as { code: string }).code;
    }
    expect(code).toBe('PACK_TOO_LARGE');
  });

  it('stops at the entry limit', () => {
    const many = writeTarGz(
      Array.from({ length: 12 }, (_, i) => ({ path: `f${i}`, data: bytes('x') })),
      0,
    );
    expect(() => readTarGz('many', many, { maxBytes: 1 << 20, maxEntries: 10 })).toThrow(
      /more than 10 entries/,
    );
  });
});

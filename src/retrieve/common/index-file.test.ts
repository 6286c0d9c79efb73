import { describe, expect, it } from 'vitest';
import { decodeIndexFile, encodeIndexFile } from './index-file.js';

const options = { magic: 'CGTEST\n', kind: 'test index', source: 'x.idx', format: 2 };

describe('index file layout', () => {
  const buf = encodeIndexFile('CGTEST\n', { format: 2, ids: ['a', 'b'] }, [
    new Float32Array([0.5, -1.25]),
    new Uint32Array([7, 8, 9]),
  ]);

  it('round-trips the header and the arrays in order', () => {
    const file = decodeIndexFile<{ format: number; ids: string[] }>(buf, options);
    expect(file.header.ids).toEqual(['a', 'b']);
    expect([...file.float32(2)]).toEqual([0.5, -1.25]);
    expect([...file.uint32(3)]).toEqual([7, 8, 9]);
  });

  it.each([
    [
      'a foreign file',
      Buffer.from('hello world, not an index'),
      /x\.idx is not a citegeist test index \(wrong file signature\)/,
    ],
    ['a truncated header', buf.subarray(0, 14), /truncated/],
  ])('refuses %s with INDEX_CORRUPT', (_name, bytes, message) => {
    expect(() => decodeIndexFile(bytes, options)).toThrow(message);
  });

  it('refuses a truncated body when the arrays are read', () => {
    const file = decodeIndexFile(buf.subarray(0, buf.length - 4), options);
    file.float32(2);
    expect(() => file.uint32(3)).toThrow(/truncated/);
  });

  it('refuses another format version with INDEX_VERSION', () => {
    expect(() => decodeIndexFile(buf, { ...options, format: 3 })).toThrow(
      /has format 2; this version reads 3/,
    );
  });
});

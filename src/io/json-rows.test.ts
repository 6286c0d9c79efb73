import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, RowFile, type RowPlace, readJsonlLines, scanJsonRows } from './json-rows.js';
import { parseJsonl } from './jsonl.js';
import { MAX_INPUT_BYTES, readTextFile } from './read-input.js';

const dir = mkdtempSync(join(tmpdir(), 'citegeist-json-rows-'));
let n = 0;
const file = (text: string | Buffer) => {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, text);
  return path;
};

/** The sha256 of a file's bytes, read whole (what `scanJsonRows` hashes chunk by chunk). */
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every row with its place, read with a chunk size small enough to split rows across chunks. */
function rows(path: string, as: 'json' | 'lines', chunk: number) {
  const out: { text: string; place: RowPlace }[] = [];
  const result = scanJsonRows(path, as, (text, place) => out.push({ text, place }), 'file', chunk);
  return { out, result };
}

const tricky = [
  { a: 'brackets ] } [ { and "quotes" and \\ backslashes \\\\"', b: [1, 2, { c: null }] },
  { é: 'ünïcödé ✓ 𝐀 \u2028', n: -1.5e-7, t: true },
  'a string row with \\" escaped quote at the end\\\\',
  [],
  {},
];

describe('scanJsonRows', () => {
  for (const chunk of [7, 64, 1 << 22]) {
    it(`reads a list, an envelope and JSONL row by row, with places (chunks of ${chunk} bytes)`, () => {
      const list = file(`\ufeff  ${JSON.stringify(tricky, null, 2)}\n`);
      const { out, result } = rows(list, 'json', chunk);
      expect(result).toEqual({ layout: 'list', fields: {}, hasRows: true, sha256: sha(list) });
      expect(out.map((r) => JSON.parse(r.text))).toEqual(tricky);
      const reader = new RowFile(list);
      for (const r of out) expect(reader.text(r.place)).toBe(r.text);
      reader.close();

      const envelope = file(JSON.stringify({ version: '1.0', rows: tricky, errors: ['x'], total: 5 }));
      const e = rows(envelope, 'json', chunk);
      expect(e.result).toEqual({
        layout: 'envelope',
        fields: { version: '1.0', errors: ['x'], total: 5 },
        hasRows: true,
        sha256: sha(envelope),
      });
      expect(e.out.map((r) => JSON.parse(r.text))).toEqual(tricky);

      const jsonl = file(`${tricky.map((t) => JSON.stringify(t)).join('\r\n')}\n\n  \n{"last": 1}`);
      const l = rows(jsonl, 'lines', chunk);
      expect(l.out.map((r) => r.place.index)).toEqual([1, 2, 3, 4, 5, 8]);
      expect(l.out.map((r) => JSON.parse(r.text))).toEqual([...tricky, { last: 1 }]);
      expect(l.result.sha256).toBe(sha(jsonl));
    });
  }

  it('reads an empty list and an object without rows', () => {
    expect(rows(file('[ ]'), 'json', 4).out).toEqual([]);
    const noRows = file('{"a": [1]}');
    expect(rows(noRows, 'json', 4).result).toEqual({
      layout: 'envelope',
      fields: { a: [1] },
      hasRows: false,
      sha256: sha(noRows),
    });
  });

  it.each([
    ['unterminated list', '[{"a": 1}, {"b": 2}'],
    ['unterminated string', '[{"a": "x}]'],
    ['missing comma', '[{"a": 1} {"b": 2}]'],
    ['text after the JSON', '[1, 2]\n{"a": 1}'],
    ['not JSON at all', 'hello'],
    ['empty file', '   '],
  ])('refuses %s', (_name, text) => {
    expect(() => rows(file(text), 'json', 5)).toThrow(JsonSyntaxError);
  });

  it('says which file is missing, a folder or unreadable', () => {
    expect(() => scanJsonRows(join(dir, 'none.json'), 'json', () => {}, 'dataset')).toThrow(
      /The dataset .*none\.json does not exist/,
    );
    expect(() => scanJsonRows(dir, 'json', () => {}, 'dataset')).toThrow(/is a folder/);
  });
});

describe('inputs readTextFile guards against', () => {
  it('refuses bytes that are not UTF-8, naming the line, and drops a byte order mark', () => {
    const bad = file(
      Buffer.concat([Buffer.from('{"a": 1}\n{"b": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]),
    );
    expect(() => rows(bad, 'lines', 4)).toThrow(/NOT_UTF8|not UTF-8 text \(first bad byte on line 2\)/);
    const list = file(Buffer.concat([Buffer.from('[\n1,\n"'), Buffer.from([0xff]), Buffer.from('"]')]));
    expect(() => rows(list, 'json', 4)).toThrow(/line 3/);
    expect(rows(file('\ufeff{"a": 1}\n'), 'lines', 4).out.map((r) => r.text)).toEqual(['{"a": 1}']);
  });

  it('refuses a named pipe before opening it: opening one with no writer would block forever', () => {
    const fifo = join(dir, `fifo${n++}`);
    execFileSync('mkfifo', [fifo]);
    // No writer is ever started: an open() would hang this test, the refusal must come first.
    expect(() => rows(fifo, 'lines', 4)).toThrow(expect.objectContaining({ code: 'FILE_NOT_REGULAR' }));
    expect(() => new RowFile(fifo).text({ offset: 0, length: 1 })).toThrow(/named pipe/);
    expect(() => readTextFile(fifo, 'dataset')).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_REGULAR' }),
    );
    expect(() => readTextFile('/dev/zero', 'dataset')).toThrow(/character device/);
  });

  it('refuses one row longer than a string can be, as FILE_TOO_LARGE naming where it starts', () => {
    // A sparse file: a row of MAX_INPUT_BYTES + 2 bytes without writing them.
    const path = join(dir, `huge${n++}.jsonl`);
    const fd = openSync(path, 'w');
    writeSync(fd, '{"a": "');
    writeSync(fd, '"}\n', MAX_INPUT_BYTES + 2);
    closeSync(fd);
    expect(() => rows(path, 'lines', 1 << 22)).toThrow(expect.objectContaining({ code: 'FILE_TOO_LARGE' }));
  });
});

describe('readJsonlLines', () => {
  it('equals parseJsonl of the text', () => {
    const text = '{"a": 1}\n\nnot json\r\n  \n[2]\n{"b": "é"}';
    expect(readJsonlLines(file(text))).toEqual(parseJsonl(text));
  });
});

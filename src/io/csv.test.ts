import { describe, expect, it } from 'vitest';
import { CitegeistError } from '../core/index.js';
import { parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads quoted fields with separators, doubled quotes and line breaks', () => {
    const text =
      '\uFEFFanswer, claim ,note\r\na1,0,"say ""hi"", then"\r\n\r\na2,1,"two\nlines"\na3,2,plain\n';
    const { header, records } = parseCsv(text);
    expect(header).toEqual(['answer', 'claim', 'note']);
    expect(records).toEqual([
      { line: 2, values: { answer: 'a1', claim: '0', note: 'say "hi", then' } },
      { line: 4, values: { answer: 'a2', claim: '1', note: 'two\nlines' } },
      { line: 6, values: { answer: 'a3', claim: '2', note: 'plain' } },
    ]);
  });

  it.each([
    ['', []],
    ['a,b', []],
    ['a,b\n"",x', [{ line: 2, values: { a: '', b: 'x' } }]],
    [
      'a\n1\n\n\n2',
      [
        { line: 2, values: { a: '1' } },
        { line: 5, values: { a: '2' } },
      ],
    ],
  ])('%j', (text, records) => {
    expect(parseCsv(text).records).toEqual(records);
  });

  it('reads another separator', () => {
    expect(parseCsv('a;b\n1;"x;y"', 'f', ';').records[0]?.values).toEqual({ a: '1', b: 'x;y' });
  });

  it.each([
    ['a,b\n1', 2, /f\.csv line 2: 1 field\(s\) where the header has 2/],
    ['a,b\n1,2,3', 2, /f\.csv line 2: 3 field\(s\) where the header has 2/],
    ['a,b\n1,"x\ny"\n3,4,5', 4, /f\.csv line 4: 3 field\(s\)/],
    ['a,b\r\n1,2\r\n3,a"b', 3, /f\.csv line 3: a quote in an unquoted field/],
  ])('rejects a short, long or badly quoted row of %j with its line as data', (text, line, message) => {
    let caught: unknown;
    try {
      parseCsv(text, 'f.csv');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CitegeistError);
    expect(caught).toMatchObject({ code: 'INVALID_CSV', where: { file: 'f.csv', line } });
    expect((caught as CitegeistError).problem).toMatch(message);
  });

  it('names the line of an unterminated quote', () => {
    expect(() => parseCsv('a,b\n1,2\n3,"open\nmore', 'ann.csv')).toThrow(
      /ann\.csv line 3: a quoted field is never closed/,
    );
  });
});

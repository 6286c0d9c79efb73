import { describe, expect, it } from 'vitest';
import { createRandom } from '../stats/index.js';
import { WordScanner, WordTable } from './word-scanner.js';

/** The words as the regex the scanner replaces finds them. */
const byRegex = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

function byScanner(text: string): string[] {
  const s = new WordScanner();
  s.reset(text);
  const out: string[] = [];
  while (s.next()) out.push(text.slice(s.start, s.end));
  return out;
}

// Letters, digits, punctuation, accents (precomposed and combining), CJK, superscripts, Roman
// numerals, astral letters and digits, an astral symbol, lone surrogates.
const PIECES = [
  'a',
  'Z',
  'é',
  'e\u0301',
  '1',
  '²',
  '½',
  'Ⅻ',
  '中',
  'ß',
  'İ',
  ' ',
  '-',
  '_',
  '.',
  '\n',
  "'",
  '𝐀',
  '𝟙',
  '😀',
  '\ud800',
  '\udc00',
  'ǅ',
  'ا',
  '٣',
  '\u200b',
  'ω',
];

describe('WordScanner', () => {
  it('finds the same words as /[\\p{L}\\p{N}]+/gu, on random text of every kind of character', () => {
    const random = createRandom(7);
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const len = Math.floor(random() * 30);
      for (let i = 0; i < len; i++) text += PIECES[Math.floor(random() * PIECES.length)];
      expect(byScanner(text), JSON.stringify(text)).toEqual(byRegex(text));
      expect(byScanner(text.toLowerCase())).toEqual(byRegex(text.toLowerCase()));
    }
  });

  it('gives equal words equal hashes wherever they stand', () => {
    const s = new WordScanner();
    s.reset('graph, graphs; graph');
    const hashes: number[] = [];
    while (s.next()) hashes.push(s.hash);
    expect(hashes[0]).toBe(hashes[2]);
    expect(hashes[0]).not.toBe(hashes[1]);
  });
});

describe('WordTable', () => {
  it('maps words to values as a Map does, through growth and hash collisions', () => {
    const random = createRandom(3);
    const table = new WordTable();
    const map = new Map<string, number>();
    const scanner = new WordScanner();
    for (let n = 0; n < 50_000; n++) {
      const word = Math.floor(random() * 30_000).toString(36);
      // A constant hash for some words forces them into one probe chain.
      const text = `  ${word} `;
      scanner.reset(text);
      scanner.next();
      const hash = word.length === 2 ? 12345 : scanner.hash;
      const got = table.get(text, scanner.start, scanner.end, hash);
      expect(got).toBe(map.get(word));
      if (got === undefined) {
        table.set(text, scanner.start, scanner.end, hash, n);
        map.set(word, n);
      }
    }
    expect(table.size).toBe(map.size);
  });
});

import { describe, expect, it } from 'vitest';
import { SubstringIndex } from './substring-index.js';

describe('SubstringIndex.indexOf equals String.indexOf', () => {
  const text = `${'the cat sat on the mat; the cat sat on the hat. '.repeat(20)}unique ending here`;
  const scanned = new SubstringIndex(text);
  // Searched often enough that its hash table is built (the first searches scan the text).
  const indexed = new SubstringIndex(text);
  for (let i = 0; i < 100; i++) indexed.indexOf(`warm-up search ${i}`);
  it.each([
    [''],
    ['t'],
    ['the cat'],
    ['the cat sat on the mat'],
    ['on the hat. the cat sat'],
    ['unique ending here'],
    ['unique ending here!'],
    ['the dog sat on the mat'],
    ['hat. the cat sat on the mat; the cat sat on the hat. the cat'],
    ['x'.repeat(2000)],
  ])('%j', (pattern) => {
    expect(scanned.indexOf(pattern)).toBe(text.indexOf(pattern));
    expect(indexed.indexOf(pattern)).toBe(text.indexOf(pattern));
  });

  it('agrees on every substring of a short random text', () => {
    let seed = 3;
    let short = '';
    for (let i = 0; i < 300; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      short += 'ab c'[seed % 4];
    }
    const small = new SubstringIndex(short);
    for (let start = 0; start < short.length; start += 7) {
      for (const len of [1, 8, 9, 20, 50]) {
        const pattern = short.slice(start, start + len);
        expect(small.indexOf(pattern)).toBe(short.indexOf(pattern));
        expect(small.indexOf(`${pattern}z`)).toBe(short.indexOf(`${pattern}z`));
      }
    }
  });
});

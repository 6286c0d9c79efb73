import { describe, expect, it } from 'vitest';
import { detectFormat, fileStem } from './detect-format.js';

const head = (s: string) => new TextEncoder().encode(s);

describe('detectFormat', () => {
  it.each([
    ['a.pdf', 'anything', 'pdf'],
    ['a.bin', '%PDF-1.7\n', 'pdf'],
    ['a.nxml', '<article>', 'jats'],
    ['a.xml', '<?xml version="1.0"?>\n<TEI xmlns="http://www.tei-c.org/ns/1.0">', 'tei'],
    ['a.xml', '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96)//EN"><article>', 'jats'],
    ['a', '<TEI>', 'tei'],
    ['a.json', '{"x": 1}', 'json'],
    ['a', '  [{"paper_id": "1"}]', 'json'],
    ['a.md', 'text', 'markdown'],
    ['a.txt', '# Title\n', 'text'],
    ['a', 'plain words', 'text'],
    ['a.docx', 'PK\u0003\u0004', null],
    ['a', 'ab\u0000cd', null],
    ['a', '<html><body>', null],
  ])('%s %j → %s', (file, start, expected) => {
    expect(detectFormat(file, head(start))).toBe(expected);
  });
});

describe('fileStem', () => {
  it.each([
    ['papers/2020.acl-main.207.pdf', '2020.acl-main.207'],
    ['gold/N18-3011.tei.xml', 'N18-3011'],
    ['gold/N18-3011.s2orc.json', 'N18-3011'],
    ['1503.00841.txt', '1503.00841'],
    ['README', 'README'],
    ['.hidden', '.hidden'],
  ])('%s → %s', (file, stem) => {
    expect(fileStem(file)).toBe(stem);
  });
});

import { describe, expect, it } from 'vitest';
import { noSpaceForm, noSpaceString, preparePaper } from './prepare-paper.js';

describe('noSpaceForm', () => {
  it.each([
    ['', ''],
    ['a b', 'ab'],
    ['sci- ence', 'science'],
    ['sci-ence', 'sci-ence'],
    ['well - known', 'wellknown'],
    ['- - x', 'x'],
    ['a -', 'a-'],
  ])('noSpaceForm(%j) = %j, and noSpaceString agrees', (input, expected) => {
    const form = noSpaceForm(input);
    expect(form.text).toBe(expected);
    expect(noSpaceString(input)).toBe(expected);
    for (let i = 0; i < form.text.length; i++) expect(input[form.toNormalized[i]!]).toBe(form.text[i]);
  });
});

describe('preparePaper', () => {
  it('normalises once and indexes tokens, hyphen splits and line breaks', () => {
    const paper = preparePaper('The Sci-\nence of [12] Parsing\nHeader 3\nends here.');
    expect(paper.normalized.text).toBe('the sci- ence of [12] parsing header 3 ends here.');
    expect(paper.noSpace.text).toBe('thescienceof[12]parsingheader3endshere.');
    const { tokens, hyphenJoins, breakAfter, vocabulary } = paper.tokenIndex;
    expect(tokens.text.slice(0, 4)).toEqual(['the', 'sci', '-', 'ence']);
    expect(hyphenJoins.get('science')).toEqual([1]);
    const marked = tokens.text.filter((_, i) => breakAfter[i] === 1);
    expect(marked).toEqual(['-', 'parsing', '3']);
    expect(vocabulary.has('parsing')).toBe(true);
    expect(paper.normalizedIndex.indexOf('of [12] parsing')).toBe(
      paper.normalized.text.indexOf('of [12] parsing'),
    );
  });

  it('handles an empty paper', () => {
    const paper = preparePaper('');
    expect(paper.normalized.text).toBe('');
    expect(paper.tokenIndex.tokens.length).toBe(0);
    expect(paper.normalizedIndex.indexOf('anything at all here')).toBe(-1);
  });
});

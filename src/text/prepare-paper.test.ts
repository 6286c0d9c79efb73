import { describe, expect, it } from 'vitest';
import { matchQuote } from './match-quote.js';
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

describe('skippable spans', () => {
  it('lets the gapped rule skip a recorded marker that no marker shape covers', () => {
    const text = 'The model {Lee:2020} outperforms the baseline on every task we tried.';
    const quote = 'The model outperforms the baseline on every task we tried.';
    expect(matchQuote(preparePaper(text), quote, { mode: 'strict' }).matched).toBe(false);
    const start = text.indexOf('{');
    const skippable = [{ start, end: text.indexOf('}') + 1 }];
    const match = matchQuote(preparePaper(text, { skippable }), quote, { mode: 'strict' });
    expect([match.matched, match.rule]).toEqual([true, 'gapped']);
    const dropped = 'The model the baseline on every task we tried.';
    expect(matchQuote(preparePaper(text, { skippable }), dropped, { mode: 'strict' }).matched).toBe(false);
  });
});

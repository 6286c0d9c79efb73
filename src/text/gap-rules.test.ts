import { describe, expect, it } from 'vitest';
import { canStartGap, isAcceptableGap } from './gap-rules.js';
import { preparePaper } from './prepare-paper.js';

/** Judges the gap between the tokens "left" and "right" in `text`. */
function judge(text: string): boolean {
  const { normalized, tokenIndex } = preparePaper(text);
  const { tokens, breakAfter } = tokenIndex;
  const ctx = { tokens, normalized, breakAfter };
  const from = tokens.text.indexOf('left') + 1;
  const to = tokens.text.lastIndexOf('right');
  const accepted = isAcceptableGap(ctx, from, to);
  // Whatever is accepted must also be startable (the search prunes on canStartGap).
  if (accepted) expect(canStartGap(ctx, from)).toBe(true);
  return accepted;
}

describe('canStartGap', () => {
  it.each([
    ['left word right', false],
    ['left\nword right', true],
    ['left [1] right', true],
    ['left (2019) right', true],
    ['left\u00B9 right', true],
    ['left * right', true],
    ['left BIBREF3 right', true],
    ['left $^{2}$ right', true],
    ['left , right', false],
  ])('%j', (text, expected) => {
    const { normalized, tokenIndex } = preparePaper(text);
    const ctx = { tokens: tokenIndex.tokens, normalized, breakAfter: tokenIndex.breakAfter };
    expect(canStartGap(ctx, 1)).toBe(expected);
  });
});

describe('isAcceptableGap', () => {
  it.each([
    ['numeric citation', 'left [12] right', true],
    ['citation list with range', 'left [3, 5-7] right', true],
    ['author-year citation', 'left (Smith et al., 2019) right', true],
    ['two author-year citations', 'left (Lee and Kim, 2020a; Wu, 2021) right', true],
    ['author-year in brackets', 'left [Smith 2019] right', true],
    ['numeric parenthesis', 'left (12) right', true],
    ['superscript footnote', 'left\u00B9 right', true],
    ['star footnote', 'left* right', true],
    ['dagger then citation', 'left\u2020 [4] right', true],
    ['QASPER placeholders with a comma', 'left BIBREF12 , BIBREF13 right', true],
    ['trailing comma after a marker', 'left [12], right', false],
    ['leading comma', 'left , [12] right', false],
    ['QASPER placeholders', 'left BIBREF12 BIBREF13 right', true],
    ['running header line with page number', 'left\nProceedings of ACL 2018 123\nright', true],
    ['page number line', 'left\n4\nright', true],
    ['short header without digits', 'left\nSmith et al.\nright', true],
    ['long line without digits', 'left\nthis is a whole line of real text here\nright', false],
    ['header not on its own line', 'left Proceedings of ACL 2018 123 right', false],
    ['four lines of furniture', 'left\nA 1\nB 2\nC 3\nD 4\nright', false],
    ['a real word', 'left not right', false],
    ['a bare number mid-line', 'left 10 right', false],
    ['parenthesis without a year', 'left (not shown) right', false],
    ['bracket with words', 'left [see below] right', false],
    ['comparison symbol', 'left < right', false],
    ['unclosed bracket', 'left [12 right', false],
    ['too long', `left (${'Smith, '.repeat(20)}2019) right`, false],
    ['Markdown footnote reference', 'left [^1] right', true],
    ['Markdown footnote references', 'left [^1, ^2] right', true],
    ['Markdown footnotes back to back', 'left [^1][^2] right', true],
    ['LaTeX superscript marker', 'left $^{2}$ right', true],
    ['LaTeX superscript list', 'left $^{3,4}$ right', true],
    ['LaTeX marker then citation', 'left $^{5}$ [2] right', true],
    ['empty footnote', 'left [^] right', false],
    ['footnote with a word', 'left [^note] right', false],
    ['bracket of separators only', 'left [,] right', false],
    ['LaTeX superscript with a word', 'left $^{th}$ right', false],
    ['LaTeX math', 'left $x^{2}$ right', false],
    ['unclosed LaTeX marker', 'left $^{2} right', false],
  ])('%s', (_name, text, expected) => {
    expect(judge(text)).toBe(expected);
  });
});

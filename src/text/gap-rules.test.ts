import { describe, expect, it } from 'vitest';
import { isAcceptableGap } from './gap-rules.js';
import { matchTokens } from './match-tokens.js';
import { normalizeText } from './normalize.js';

/** Judges the gap between the tokens "left" and "right" in `text`. */
function judge(text: string): boolean {
  const normalized = normalizeText(text);
  const tokens = matchTokens(normalized);
  const from = tokens.text.indexOf('left') + 1;
  const to = tokens.text.lastIndexOf('right');
  return isAcceptableGap({ tokens, normalized }, from, to);
}

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
  ])('%s', (_name, text, expected) => {
    expect(judge(text)).toBe(expected);
  });
});

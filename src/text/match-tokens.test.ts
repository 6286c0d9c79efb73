import { describe, expect, it } from 'vitest';
import { isHyphenSplit, matchTokens, TokenKind } from './match-tokens.js';
import { normalizeText } from './normalize.js';

describe('matchTokens', () => {
  it.each([
    ['', [], []],
    ['a', ['a'], [TokenKind.Word]],
    ['p < 0.05', ['p', '<', '0', '.', '05'], [0, 1, 0, 1, 0]],
    ['model\u00B9 and x\u00B2\u00B3', ['model', '1', 'and', 'x', '23'], [0, 2, 0, 0, 2]],
    ['BERT2 [12]', ['bert2', '[', '12', ']'], [0, 1, 0, 1]],
    ['caf\u00E9 na\u00EFve', ['cafe\u0301', 'nai\u0308ve'], [0, 0]],
    ['\u4E2D\u6587 text', ['\u4E2D\u6587', 'text'], [0, 0]],
    ['snake_case', ['snake_case'], [0]],
    ['a\u{1F600}b', ['a', '\u{1F600}', 'b'], [0, 1, 0]],
  ])('matchTokens(%j)', (input, texts, kinds) => {
    const tokens = matchTokens(normalizeText(input));
    expect(tokens.text).toEqual(texts);
    expect(Array.from(tokens.kind)).toEqual(kinds);
    for (let i = 0; i < tokens.length; i++) {
      expect(normalizeText(input).text.slice(tokens.start[i], tokens.end[i])).toBe(texts[i]);
    }
  });
});

describe('isHyphenSplit', () => {
  it.each([
    ['sci- ence', 0, true],
    ['sci-ence', 0, true],
    ['sci -ence', 0, false],
    ['3- 5', 0, false],
    ['sci- 5', 0, false],
    ['sci-', 0, false],
    ['a, b', 0, false],
  ])('isHyphenSplit(%j, %d) = %s', (input, at, expected) => {
    expect(isHyphenSplit(matchTokens(normalizeText(input)), at)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { tokenize, tokenizeWithOffsets } from './tokenize.js';

describe('tokenize (Python re.findall(r"\\w+", s.lower()))', () => {
  // Expected values from CPython 3.11.
  it.each([
    ['', []],
    ['a', ['a']],
    ['Hello, World!', ['hello', 'world']],
    ['BERT-base (110M) vs. GPT_2', ['bert', 'base', '110m', 'vs', 'gpt_2']],
    ['p < 0.05', ['p', '0', '05']],
    ['cafe\u0301 Caf\u00e9', ['cafe', 'caf\u00e9']],
    ['x\u00b2 + \u00bd', ['x\u00b2', '\u00bd']],
    [
      '\u4e2d\u6587 \u0440\u0443\u0441\u0441\u043a\u0438\u0439 \u0395\u039b\u039b\u0397\u039d\u0399\u039a\u0391',
      [
        '\u4e2d\u6587',
        '\u0440\u0443\u0441\u0441\u043a\u0438\u0439',
        '\u03b5\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03b1',
      ],
    ],
    ['snake_case 12.5%', ['snake_case', '12', '5']],
    ['\u0915\u093f\u0924\u093e\u092c', ['\u0915', '\u0924', '\u092c']],
    ['  \n\t ', []],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input)).toEqual(expected);
  });

  it('keeps case and takes a custom pattern on request', () => {
    expect(tokenize('Hello World', { lowercase: false })).toEqual(['Hello', 'World']);
    expect(tokenize('a-b c', { pattern: /[a-z-]+/ })).toEqual(['a-b', 'c']);
  });
});

describe('tokenizeWithOffsets', () => {
  it.each([
    [
      'Hello, World!',
      [
        ['hello', 0, 5],
        ['world', 7, 12],
      ],
    ],
    [
      '\u0130stanbul is',
      [
        ['i\u0307stanbul', 0, 8],
        ['is', 9, 11],
      ],
    ],
    ['', []],
  ] as const)('tokenizeWithOffsets(%j)', (input, expected) => {
    expect(tokenizeWithOffsets(input).map((t) => [t.text, t.start, t.end])).toEqual(expected);
  });
});

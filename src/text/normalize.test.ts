import { describe, expect, it } from 'vitest';
import { normalizeQuote, normalizeText, normalizeUnicode, toOriginalSpan } from './normalize.js';

describe('normalizeText', () => {
  it.each([
    ['', ''],
    ['A', 'a'],
    ['  Hello   World \n\t ', 'hello world'],
    ['\uFB01eld \uFB02ow', 'field flow'],
    ['\u2018single\u2019 \u201Adouble\u201B', "'single' 'double'"],
    ['\u201Cq\u201D \u201Eq\u201F', '"q" "q"'],
    ['a\u2013b\u2014c\u2212d', 'a-b-c-d'],
    ['no\u00A0break\u202Fnarrow', 'no break narrow'],
    ['x\u00B2 + H\u2082O', 'x2 + h2o'],
    ['Caf\u00E9', 'cafe\u0301'],
    ['cafe\u0301', 'cafe\u0301'],
    ['\u00C9COLE', 'e\u0301cole'],
    ['line-\nbreak', 'line- break'],
    ['\u{1D400}BC', 'abc'],
    ['emoji \u{1F600} stays', 'emoji \u{1F600} stays'],
    ['\u3000full\u3000width\uFF21', 'full widtha'],
  ])('normalizeText(%j) = %j', (input, expected) => {
    expect(normalizeText(input).text).toBe(expected);
  });

  it('maps every normalised character back to its original code point', () => {
    const original = 'A \uFB01ne  Caf\u00E9\n';
    const n = normalizeText(original);
    expect(n.text).toBe('a fine cafe\u0301');
    // a, space, f, i (both from U+FB01 at 2), n, e, space (first of two), c, a, f, e, U+0301 (both from é)
    expect(Array.from(n.offsets)).toEqual([0, 1, 2, 2, 3, 4, 5, 7, 8, 9, 10, 10]);
    expect(n.original).toBe(original);
  });

  it.each([
    // [original, normalised span, expected original span text]
    ['The \uFB01eld is', [4, 9], '\uFB01eld'],
    ['The \uFB01eld is', [5, 9], '\uFB01eld'],
    ['Le Caf\u00E9!', [3, 7], 'Caf\u00E9'],
    ['x \u{1D400}y z', [2, 4], '\u{1D400}y'],
    ['a   b', [0, 3], 'a   b'],
  ] as const)('toOriginalSpan on %j %j', (original, [start, end], expected) => {
    const n = normalizeText(original);
    const span = toOriginalSpan(n, start, end);
    expect(original.slice(span.start, span.end)).toBe(expected);
  });

  it('maps an empty span to a point and refuses a span outside the text', () => {
    const n = normalizeText('ab');
    expect(toOriginalSpan(n, 1, 1)).toEqual({ start: 1, end: 1 });
    expect(toOriginalSpan(n, 2, 2)).toEqual({ start: 2, end: 2 });
    expect(() => toOriginalSpan(n, 0, 3)).toThrow(/outside the normalised text/);
  });
});

describe('ASCII fast path', () => {
  it.each([
    [''],
    ['   '],
    ['A'],
    [' \t Hello\r\n\n  World\v\f!  '],
    ['x  y\tz'],
    ['UPPER lower MiXeD 123 _-+.'],
    ['\u0000control\u001fchars\u007f'],
  ])('equals the general path on %j', (input) => {
    const fast = normalizeText(input);
    const slow = normalizeUnicode(input);
    expect(fast.text).toBe(slow.text);
    expect(Array.from(fast.offsets)).toEqual(Array.from(slow.offsets));
  });

  it('equals the general path on random ASCII', () => {
    let seed = 7;
    const alphabet = 'aB \t\n\r.,-Zz09';
    for (let n = 0; n < 300; n++) {
      let text = '';
      for (let k = 0; k < n % 40; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        text += alphabet[seed % alphabet.length];
      }
      expect(Array.from(normalizeText(text).offsets)).toEqual(Array.from(normalizeUnicode(text).offsets));
      expect(normalizeText(text).text).toBe(normalizeUnicode(text).text);
    }
  });
});

describe('normalizeQuote', () => {
  it.each([
    ['', ''],
    ['  ', ''],
    ['"Hello."', 'hello'],
    ['\u201CWe propose X;\u201D', 'we propose x'],
    ["\u2018it's\u2019", "it's"],
    ['...; : ,', ''],
    [' \t"a, b" ', 'a, b'],
    ['(see Fig. 3)', '(see fig. 3)'],
    ['end!', 'end!'],
  ])('normalizeQuote(%j) = %j', (input, expected) => {
    expect(normalizeQuote(input).text).toBe(expected);
  });

  it('keeps offsets into the original quote after stripping', () => {
    const q = '\u201C Big Model.\u201D';
    const n = normalizeQuote(q);
    expect(n.text).toBe('big model');
    expect(q.slice(toOriginalSpan(n, 0, n.text.length).start, toOriginalSpan(n, 0, n.text.length).end)).toBe(
      'Big Model',
    );
  });
});

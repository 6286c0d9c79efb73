import { describe, expect, it } from 'vitest';
import * as citegeist from '../internal.js';

// Each text function is called through the package entry and must give the answer worked out
// by hand (or by Python's difflib, for the sequence matcher), not merely be a function.
describe('package entry citegeist/internal: the text functions work through it', () => {
  it('normalizeText folds case, width, ligatures and dashes, keeping an offset map', () => {
    const n = citegeist.normalizeText('Ｔhe  ﬁrst—“quote”');
    expect(n.text).toBe('the first-"quote"');
    expect(n.original).toBe('Ｔhe  ﬁrst—“quote”');
    // "ﬁ" (original index 5) becomes "fi" (normalised 4 and 5): both map back to it.
    expect([n.offsets[4], n.offsets[5]]).toEqual([5, 5]);
  });

  it('normalizeQuote also drops the quote marks and outer spaces', () => {
    expect(citegeist.normalizeQuote('  “The  ﬁrst”  ').text).toBe('the first');
  });

  it('toOriginalSpan maps a normalised span back to the original text', () => {
    const n = citegeist.normalizeText('Ｔhe  ﬁrst');
    // "first" is normalised [4, 9) (two spaces became one); in the original it starts at the
    // ligature "ﬁ" (index 5), and "i" (normalised 5) also maps back into it.
    expect(citegeist.toOriginalSpan(n, 4, 9)).toEqual({ start: 5, end: 9 });
    expect(citegeist.toOriginalSpan(n, 5, 9)).toEqual({ start: 5, end: 9 });
  });

  it('preparePaper and matchQuote find a quote in a paper, and miss one that is not there', () => {
    const paper = citegeist.preparePaper('The cat sat on the mat. Dogs bark loudly.');
    expect(paper.normalized.text).toBe('the cat sat on the mat. dogs bark loudly.');
    expect(citegeist.matchQuote(paper, 'the  Cat sat on the mat')).toEqual({
      matched: true,
      rule: 'exact',
      spans: [{ start: 0, end: 22 }],
    });
    expect(citegeist.matchQuote(paper, 'purple elephants fly')).toMatchObject({ matched: false, spans: [] });
  });

  it('sequenceRatio and sequenceMatchingBlocks agree with difflib', () => {
    // difflib.SequenceMatcher(None, 'abcd', 'bcde').ratio() == 0.75
    expect(citegeist.sequenceRatio('abcd', 'bcde')).toBe(0.75);
    // SequenceMatcher(None, 'abxcd', 'abcd').get_matching_blocks() without the final sentinel
    expect(citegeist.sequenceMatchingBlocks('abxcd', 'abcd')).toEqual([
      { a: 0, b: 0, size: 2 },
      { a: 3, b: 2, size: 2 },
    ]);
  });

  it('tokenize, tokenizeWithOffsets and splitSentences split as documented', () => {
    expect(citegeist.tokenize('Hello, world! 3.5')).toEqual(['hello', 'world', '3', '5']);
    expect(citegeist.tokenizeWithOffsets('Hello, world')).toEqual([
      { text: 'hello', start: 0, end: 5 },
      { text: 'world', start: 7, end: 12 },
    ]);
    expect(citegeist.splitSentences('Dogs bark. Cats meow! Fish swim.').map((s) => s.text)).toEqual([
      'Dogs bark.',
      'Cats meow!',
      'Fish swim.',
    ]);
  });
});

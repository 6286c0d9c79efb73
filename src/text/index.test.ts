import { describe, expect, it } from 'vitest';
import * as citegeist from '../internal.js';

describe('package entry citegeist/internal', () => {
  it.each([
    'normalizeText',
    'normalizeQuote',
    'toOriginalSpan',
    'preparePaper',
    'matchQuote',
    'sequenceRatio',
    'sequenceMatchingBlocks',
    'tokenize',
    'tokenizeWithOffsets',
    'splitSentences',
  ])('exports %s as a function', (name) => {
    expect(typeof (citegeist as Record<string, unknown>)[name]).toBe('function');
  });
});

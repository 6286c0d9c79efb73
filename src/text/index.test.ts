import { describe, expect, it } from 'vitest';
import * as citegeist from '../index.js';

describe('package entry', () => {
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

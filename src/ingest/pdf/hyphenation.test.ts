import { describe, expect, it } from 'vitest';
import { joinLines, shouldJoinHyphen, Vocabulary } from './hyphenation.js';

function vocabOf(...texts: string[]): Vocabulary {
  const v = new Vocabulary();
  for (const t of texts) v.add(t);
  return v;
}

describe('shouldJoinHyphen', () => {
  it.each([
    ['joined word occurs elsewhere', 'the Sci-', 'ence of it', 'science matters', true],
    ['hyphenated form occurs elsewhere', 'a state-of-the-', 'art model', 'state-of-the-art results', false],
    ['capital after the hyphen', 'the non-', 'English data', '', false],
    ['digit after the hyphen', 'the GPT-', '4 model', '', false],
    ['compound broken at its first hyphen', 'the state-', 'of-the-art model', 'of the art', false],
    ['compound broken before its last part', 'an end-', 'to-end system', '', false],
    ['both parts are words', 'the data-', 'driven method', 'data that is driven', false],
    ['syllable break, parts not words', 'the dehypenisa-', 'tion of', 'the of', true],
    ['short parts are joined', 'a be-', 'cause of', 'be cause', true],
    ['no hyphen', 'the', 'data', '', false],
    ['dash after a space', 'the -', 'data', '', false],
  ])('%s', (_name, line, next, corpus, expected) => {
    expect(shouldJoinHyphen(line, next, vocabOf(corpus))).toBe(expected);
  });
});

describe('joinLines', () => {
  it('joins the GROBID dehyphenation fixture', () => {
    const lines = ['We test the dehypenisa-', 'tion of a short text.'];
    const v = new Vocabulary();
    v.addLines(lines);
    expect(joinLines(lines, v)).toBe('We test the dehypenisation of a short text.');
  });
  it('does not count break fragments as words', () => {
    const v = new Vocabulary();
    v.addLines(['the data-', 'driven model']);
    expect(v.has('data')).toBe(false);
    expect(v.has('driven')).toBe(false);
    expect(v.has('model')).toBe(true);
  });
  it('keeps a compound and joins plain lines with a space', () => {
    const v = vocabOf('state-of-the-art');
    expect(joinLines(['a state-of-the-', 'art model', ' is here '], v)).toBe(
      'a state-of-the-art model is here',
    );
  });
  it('returns an empty string for no lines', () => {
    expect(joinLines([], new Vocabulary())).toBe('');
  });
});

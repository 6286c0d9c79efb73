import { describe, expect, it } from 'vitest';
import { segmentAnswer } from './segment.js';

const sources = { '1': 'Excerpt one.', '2': 'Excerpt two.', '3': 'Excerpt three.' };

describe('segmentAnswer', () => {
  it('splits at blank lines and after each marker group, keeping sentence punctuation', () => {
    const answer =
      'Meloxicam is an NSAID [1]. It is dosed at 0.1 mg/kg [2, 3]. Give it with food.\n\nSecond paragraph [^1].';
    const segs = segmentAnswer(answer, sources);
    expect(segs.map((s) => s.text)).toEqual([
      'Meloxicam is an NSAID [1].',
      'It is dosed at 0.1 mg/kg [2, 3].',
      'Give it with food.',
      'Second paragraph [^1].',
    ]);
    expect(segs.map((s) => s.keys)).toEqual([['1'], ['2', '3'], [], ['1']]);
    expect(segs[1]?.excerpts).toEqual([
      { key: '2', text: 'Excerpt two.' },
      { key: '3', text: 'Excerpt three.' },
    ]);
    expect(segs[2]?.excerpts).toEqual([]);
    for (const s of segs) expect(answer.slice(s.start, s.end)).toBe(s.text);
  });

  it('records unknown sources as problems and keeps the known excerpts', () => {
    const [seg] = segmentAnswer('A claim [1, 9].', sources);
    expect(seg?.keys).toEqual(['1', '9']);
    expect(seg?.excerpts.map((e) => e.key)).toEqual(['1']);
    expect(seg?.problems).toEqual(['marker cites unknown source "9"']);
  });

  it('gives the decomposer the context back to the last header', () => {
    const answer = '# Intro\nFirst [1].\n\n## Dosing\nThe dose is 5 mg/kg [2]. It is given twice daily [3].';
    const segs = segmentAnswer(answer, sources);
    expect(segs.map((s) => s.text)).toEqual([
      'First [1].',
      'The dose is 5 mg/kg [2].',
      'It is given twice daily [3].',
    ]);
    expect(segs[0]?.context).toBe('# Intro');
    expect(segs[1]?.context).toBe('## Dosing');
    expect(segs[2]?.context).toBe('## Dosing\nThe dose is 5 mg/kg [2].');
  });

  it('without headers the context runs from the start of the answer', () => {
    const segs = segmentAnswer('A [1].\n\nB [2].', sources);
    expect(segs[1]?.context).toBe('A [1].');
  });

  it.each([
    ['', 0],
    ['   \n\n  ', 0],
    ['# Only a header', 0],
    ['[1]', 0],
    ['Plain text, no markers.', 1],
    ['A [1]\n\n\n\nB [2]', 2],
    ['Windows\r\n\r\nline ends [1].', 2],
  ])('%j → %i segments', (answer, n) => {
    expect(segmentAnswer(answer, sources)).toHaveLength(n);
  });

  it('keeps list items of one block in one segment unless markers cut them', () => {
    const segs = segmentAnswer('- a [1]\n- b [2]\n- c', sources);
    expect(segs.map((s) => s.text)).toEqual(['- a [1]', '- b [2]', '- c']);
  });
});

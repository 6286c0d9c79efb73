import { describe, expect, it } from 'vitest';
import { findMarkerGroups, normaliseKey } from './markers.js';

describe('findMarkerGroups', () => {
  it.each([
    ['A [1].', [['1']]],
    ['A [1, 2] b', [['1', '2']]],
    ['A [^1] b [^1, ^2]', [['1'], ['1', '2']]],
    ['A [1-3]', [['1', '2', '3']]],
    ['A [1–2, 5]', [['1', '2', '5']]],
    ['A [1][2] b', [['1', '2']]],
    ['A [^1], [^3] b', [['1', '3']]],
    ['A [1, 1]', [['1']]],
    ['No markers [a] or [] or [1.5] here', []],
    ['Link [text](http://x) and [2]', [['2']]],
  ])('%s', (text, expected) => {
    expect(findMarkerGroups(text).map((g) => g.keys)).toEqual(expected);
  });

  it('records reversed and huge ranges as problems', () => {
    const [group] = findMarkerGroups('x [3-1] y [1-500]');
    expect(group?.keys).toEqual([]);
    expect(group?.problems[0]).toMatch(/reversed/);
  });

  it('gives spans into the text', () => {
    const text = 'Dose is 5 mg/kg [^2, ^3].';
    const [g] = findMarkerGroups(text);
    expect(text.slice(g?.start, g?.end)).toBe('[^2, ^3]');
  });
});

describe('normaliseKey', () => {
  it.each([
    ['1', '1'],
    ['^1', '1'],
    ['[^1]', '1'],
    [' 2 ', '2'],
    ['[3]', '3'],
  ])('%s → %s', (raw, key) => expect(normaliseKey(raw)).toBe(key));
});

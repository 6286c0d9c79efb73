import { describe, expect, it } from 'vitest';
import { findSectionsByLabel, normalizeSectionLabel, sectionLabelMatches } from './section-label.js';

describe('normalizeSectionLabel', () => {
  it.each([
    ['3 Results', 'results'],
    ['3.1 Data', 'data'],
    ['3.1. Data.', 'data'],
    ['IV. Discussion', 'discussion'],
    ['A.1 Hyper-parameters', 'hyper-parameters'],
    ['A Survey of Methods', 'a survey of methods'],
    ['  Related   Work ', 'related work'],
    ['2018 results', 'results'],
    ['', ''],
  ])('%j → %j', (label, expected) => {
    expect(normalizeSectionLabel(label)).toBe(expected);
  });
});

describe('sectionLabelMatches', () => {
  it.each([
    ['Results', ['4 Results'], true],
    ['4 results', ['Results'], true],
    ['Approach ::: Data', ['3 Approach', '3.1 Data'], true],
    ['Approach ::: Data', ['3 Approach', '3.1 Setup', '3.1.1 Data'], true],
    ['Approach ::: Data', ['Data'], false],
    ['Setup ::: Approach ::: Data', ['Approach', 'Setup', 'Data'], false],
    ['Data', ['3 Approach', '3.1 Data'], true],
    ['Approach', ['3 Approach', '3.1 Data'], false],
    [' ::: ', ['Data'], false],
    ['Data', [], false],
  ])('%j on %j → %s', (label, path, expected) => {
    expect(sectionLabelMatches(label, path)).toBe(expected);
  });
});

describe('findSectionsByLabel', () => {
  const sections = [{ path: ['1 Introduction'] }, { path: ['Approach'] }, { path: ['Transfer Protocol'] }];
  it('falls back to the last part of a nested label when the source is flat', () => {
    expect(findSectionsByLabel(sections, 'Approach ::: Transfer Protocol')).toEqual([sections[2]]);
    expect(findSectionsByLabel(sections, 'Approach ::: Transfer Protocol', { exact: true })).toEqual([]);
  });
  it('finds nothing for an unknown label', () => {
    expect(findSectionsByLabel(sections, 'Methods')).toEqual([]);
  });
});

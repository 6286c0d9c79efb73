import { describe, expect, it } from 'vitest';
import type { PdfItem } from './pdf-engine.js';
import { combineAccents, joinItems } from './pdf-text.js';

const item = (str: string, x: number, y = 100, size = 10): PdfItem => ({
  str,
  x,
  y,
  width: str.length * size * 0.5,
  size,
  font: 'f1',
  rotated: false,
});

describe('combineAccents', () => {
  it.each([
    ['Erd˝os', 'Erdős'],
    ['Departamento de F´ısica', 'Departamento de Física'],
    ['Lemaˆıtre', 'Lemaître'],
    ['M´exico', 'México'],
    ['Wa¨ckers', 'Wäckers'],
    ['Caf´e au lait', 'Café au lait'],
    ['cafe´ noir', 'café noir'],
    ['Dvoˇr´ak', 'Dvořák'],
  ])('%s → %s', (printed, combined) => {
    expect(combineAccents(printed)).toBe(combined.normalize('NFC'));
  });
  it.each([
    ['don´t', 'a letter with no precomposed form keeps its accent'],
    ['run `make` first', 'a backtick outside a word is code'],
    ['plain text', 'no accent'],
  ])('leaves %j alone (%s)', (text) => {
    expect(combineAccents(text)).toBe(text);
  });
});

describe('joinItems', () => {
  it('spaces words by the gap between items', () => {
    expect(joinItems([item('deep', 0), item('learning', 22), item('s', 70)])).toBe('deep learning s');
    expect(joinItems([item('deep', 0), item('ly', 20)])).toBe('deeply');
  });
  it('keeps a subscript apart from its letter, as S2ORC and GROBID do', () => {
    expect(joinItems([item('T', 0), item('ν', 5.5, 98.5, 7.4), item('is', 12)])).toBe('T ν is');
  });
  it('combines spacing accents across items', () => {
    expect(joinItems([item('Erd˝', 0), item('os', 18)])).toBe('Erdős');
  });
});

describe('double quotes printed as two single quotes', () => {
  it('become double quotes', () => {
    expect(joinItems([item('‘‘corporate social responsibility’’ is', 0)])).toBe(
      '“corporate social responsibility” is',
    );
  });
});

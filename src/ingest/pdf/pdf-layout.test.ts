import { describe, expect, it } from 'vitest';
import type { PdfItem, PdfPageItems } from './pdf-engine.js';
import { layoutPage, mergeDropCaps } from './pdf-lines.js';

const item = (str: string, x: number, y: number, width: number, size = 10): PdfItem => ({
  str,
  x,
  y,
  width,
  size,
  font: size === 10 ? 'body' : 'other',
  rotated: false,
});

/** `n` lines of a column starting at `top`, 12 pt apart, labelled for reading-order checks. */
const column = (label: string, x: number, width: number, top: number, n: number, size = 10) =>
  Array.from({ length: n }, (_, i) =>
    item(`${label}${i + 1} some words of prose text here`, x, top - i * 12, width, size),
  );

const page = (items: PdfItem[]): PdfPageItems => ({ number: 1, width: 600, height: 800, items });
const order = (p: PdfPageItems) => layoutPage(p).lines.map((l) => l.text.split(' ')[0]);

describe('reading order from the layout', () => {
  it('reads a two-column page column by column, with a full-width figure caption between two stretches', () => {
    const p = page([
      item('A Title Of The Paper', 150, 760, 300, 16),
      ...column('L', 50, 230, 720, 20),
      ...column('R', 320, 230, 720, 20),
      item('Figure 1: a wide figure caption that runs across both of the columns', 50, 450, 500),
      ...column('l', 50, 230, 420, 15),
      ...column('r', 320, 230, 420, 15),
    ]);
    const seen = order(p);
    const pos = (t: string) => seen.indexOf(t);
    expect(pos('A')).toBe(0);
    expect(pos('L20')).toBeLessThan(pos('R1'));
    expect(pos('R20')).toBeLessThan(pos('Figure'));
    expect(pos('Figure')).toBeLessThan(pos('l1'));
    expect(pos('l15')).toBeLessThan(pos('r1'));
    expect(seen).toHaveLength(1 + 20 + 20 + 1 + 15 + 15);
  });

  it('reads a three-column page left to right', () => {
    const p = page([
      ...column('a', 40, 165, 740, 30),
      ...column('b', 220, 165, 740, 30),
      ...column('c', 400, 165, 740, 30),
    ]);
    const layout = layoutPage(p);
    expect(layout.separators).toHaveLength(2);
    const seen = order(p);
    expect(seen.indexOf('a30')).toBeLessThan(seen.indexOf('b1'));
    expect(seen.indexOf('b30')).toBeLessThan(seen.indexOf('c1'));
  });

  it('keeps a sidebar in small type apart from the main text beside it', () => {
    const p = page([
      ...column('side', 20, 110, 700, 8, 8),
      ...Array.from({ length: 40 }, (_, i) =>
        item(`main${i + 1} ${'word '.repeat(12)}`, 150, 740 - i * 12, 400),
      ),
    ]);
    const layout = layoutPage(p);
    expect(layout.separators).toHaveLength(1);
    const seen = order(p);
    expect(seen.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, i) => `side${i + 1}`));
    expect(seen.slice(8, 12)).toEqual(['main1', 'main2', 'main3', 'main4']);
  });

  it('does not cut a table into columns', () => {
    const rows = Array.from({ length: 8 }, (_, i) => [
      item(`Model${i}`, 100, 600 - i * 12, 60),
      item(`${80 + i}.1`, 220, 600 - i * 12, 20),
      item(`${70 + i}.5`, 300, 600 - i * 12, 20),
      item(`${60 + i}.2`, 380, 600 - i * 12, 20),
    ]).flat();
    const layout = layoutPage(page(rows));
    expect(layout.separators).toHaveLength(0);
    expect(layout.lines).toHaveLength(8);
    expect(layout.lines[0]!.cells.map((c) => c.text)).toEqual(['Model0', '80.1', '70.5', '60.2']);
  });
});

describe('lines of inline mathematics', () => {
  it('keep arrow labels and raised indices set above the line in that line (2020.acl-main.207, page 3)', () => {
    // As pdfjs reports "if P¹ −cite→ P² and" there: the labels 6.2 pt and the indices 4 pt over a
    // 10.9 pt line, with lines 13.5 pt apart.
    const p = page([
      item('query paper, but are cited by a paper cited by the', 307, 605.5, 218, 10.9),
      item('query paper, i.e. if', 307, 589.6, 84, 10.9),
      item('P', 394.6, 589.6, 7.6, 10.9),
      item('1', 403.1, 593.6, 4.2, 8),
      item('cite', 414.3, 595.8, 13.5, 8),
      item('−', 411.7, 589.6, 8.5, 10.9),
      item('−', 416.3, 589.6, 8.5, 10.9),
      item('→ P', 420.9, 589.6, 22.4, 10.9),
      item('2', 444.2, 593.6, 4.2, 8),
      item('and so on.', 452.1, 589.6, 40, 10.9),
      item('but the next line stays a line of its own', 307, 573.7, 200, 10.9),
    ]);
    expect(layoutPage(p).lines.map((l) => l.text)).toEqual([
      'query paper, but are cited by a paper cited by the',
      'query paper, i.e. if P¹ −cite−→ P² and so on.',
      'but the next line stays a line of its own',
    ]);
  });
});

describe('drop caps', () => {
  it('put a large initial at the start of the highest line beside it', () => {
    const items = [
      item('O', 165.7, 181.2, 26.1, 31.7),
      item('ver the past three decades increasing', 192.8, 201.1, 155, 8.5),
      item('pressure from non-governmental organi-', 192.8, 191, 155, 8.5),
      item('United Nations, has required', 165.7, 170.8, 180, 8.5),
    ];
    expect(mergeDropCaps(items).map((i) => i.str)).toEqual([
      'Over the past three decades increasing',
      'pressure from non-governmental organi-',
      'United Nations, has required',
    ]);
  });
});

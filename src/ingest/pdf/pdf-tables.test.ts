import { describe, expect, it } from 'vitest';
import type { PdfLine } from './pdf-lines.js';
import { findTables, tableRows, tableText } from './pdf-tables.js';

/** A line from its cells: [x0, text] pairs (each cell 6 pt per character wide). */
const line = (y: number, ...cells: [number, string][]): PdfLine => {
  const parts = cells.map(([x0, text]) => ({ x0, x1: x0 + text.length * 6, text }));
  return {
    page: 1,
    text: parts.map((c) => c.text).join(' '),
    x0: parts[0]!.x0,
    x1: parts.at(-1)!.x1,
    y,
    size: 10,
    font: 'f',
    fonts: new Set(['f']),
    region: 0,
    gaps: parts.length - 1,
    cells: parts,
    marker: '',
  };
};

describe('tables', () => {
  const header = line(700, [100, 'File'], [300, 'Description']);
  const rows = [
    header,
    line(686, [100, 'intro.ipynb'], [300, 'Animations and rotation']),
    line(674, [300, 'curve plots.']),
    line(660, [100, 'widget.ipynb'], [300, 'Interactive widget']),
  ];

  it('finds a table from aligned cells, with a wrapped cell', () => {
    const found = findTables([line(720, [100, 'Some prose above the table']), ...rows], 12);
    expect([...found.keys()]).toEqual(rows);
  });

  it('writes it as TSV, the wrapped cell joined to its row', () => {
    expect(tableRows(rows)).toEqual([
      ['File', 'Description'],
      ['intro.ipynb', 'Animations and rotation curve plots.'],
      ['widget.ipynb', 'Interactive widget'],
    ]);
    expect(tableText(rows)).toBe(
      'File\tDescription\nintro.ipynb\tAnimations and rotation curve plots.\nwidget.ipynb\tInteractive widget',
    );
  });

  it('takes a numbered list and a formula with its number for no table', () => {
    const list = [
      line(700, [80, '1.'], [100, 'Annotate the names']),
      line(688, [80, '2.'], [100, 'Analyse the question']),
    ];
    expect(findTables(list, 12).size).toBe(0);
    const formulas = [line(700, [150, 'x = y + z'], [480, '(1)']), line(680, [150, 'a = b'], [480, '(2)'])];
    expect(findTables(formulas, 12).size).toBe(0);
  });

  it('joins the lines of a table whose columns cannot be recovered', () => {
    const ragged = [line(700, [100, 'a'], [200, 'b']), line(688, [100, 'one long cell only'])];
    expect(tableRows(ragged)).toBeNull();
    expect(tableText(ragged)).toBe('a b one long cell only');
  });
});

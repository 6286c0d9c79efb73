/**
 * Tables: finding them, and their bodies as rows and columns.
 *
 * A table is a run of consecutive lines of one region in which at least two lines have two or more
 * cells (parts between gaps wider than 1 em; a formula and its equation number do not count) that
 * start at the same x in at least two places, together with the lines between and after them whose
 * only cell starts where a later column starts (a cell that wraps onto the next line).
 *
 * Each line of a table is a row, or continues the row above when its only cell is not in the first
 * column. Columns are the x ranges that the cells of the *regular* rows
 * (those with the most common number of cells, or one fewer) cover, merged where they overlap; every
 * cell goes to the column it starts in (else the one it overlaps most: a header cell spanning two
 * columns goes to the first). When at least two columns and two rows come out and most rows fill two or more
 * columns, the table is written as TSV (cells separated by tabs, rows by newlines); otherwise its
 * lines are joined as one paragraph, as printed.
 */
import type { PdfLine } from './pdf-lines.js';

const EQUATION_NUMBER = /^\(\s*(?:\d{1,3}[a-z]?|[A-Z]\.\d{1,3})\s*\)$/;
const near = (a: number, b: number) => Math.abs(a - b) <= 3;

const LIST_LABEL = /^(?:\d{1,2}[.)]|\(?[a-z]\)|\(?[ivx]{1,4}[.)]|[•◦▪▸►‣⁃·∙–—*-])$/;

/** A line with two or more cells, not a formula with its number nor a list item with its label. */
function isRowLike(l: PdfLine): boolean {
  if (l.cells.length < 2) return false;
  if (l.cells.length > 2) return true;
  return !EQUATION_NUMBER.test(l.cells[1]!.text.trim()) && !LIST_LABEL.test(l.cells[0]!.text.trim());
}

/** The lines of a page that belong to tables (see the module comment), with a table number each. */
export function findTables(lines: readonly PdfLine[], lineGap: number): Map<PdfLine, number> {
  const out = new Map<PdfLine, number>();
  let table = 0;
  for (let i = 0; i < lines.length; ) {
    const first = lines[i]!;
    if (!isRowLike(first)) {
      i++;
      continue;
    }
    const starts = first.cells.map((c) => c.x0);
    const run = [first];
    let rowLike = 1;
    let aligned = 0;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      const prev = run.at(-1)!;
      if (l.region !== first.region || l.page !== first.page || Math.abs(l.size - first.size) > 1.5) break;
      if (prev.y - l.y > lineGap * 3 * (l.size / 10 + 0.5)) break;
      const shared = l.cells.filter((c) => starts.some((x) => near(x, c.x0))).length;
      if (isRowLike(l) && shared >= 2) {
        rowLike++;
        aligned++;
      } else if (isRowLike(l) && shared >= 1) rowLike++;
      else if (l.cells.length === 1 && l.x0 > Math.min(...starts) + 3 && starts.some((x) => near(x, l.x0))) {
        /* a wrapped cell */
      } else break;
      for (const c of l.cells) if (!starts.some((x) => near(x, c.x0))) starts.push(c.x0);
      run.push(l);
    }
    if (rowLike >= 2 && aligned >= 1) {
      table++;
      for (const l of run) out.set(l, table);
      i = j;
    } else i++;
  }
  return out;
}

/** The table as TSV rows, or null when its columns cannot be recovered. */
export function tableRows(lines: readonly PdfLine[]): string[][] | null {
  if (lines.length < 2) return null;
  const counts = new Map<number, number>();
  for (const l of lines)
    if (l.cells.length >= 2) counts.set(l.cells.length, (counts.get(l.cells.length) ?? 0) + 1);
  if (counts.size === 0) return null;
  const modal = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const regular = lines.filter((l) => l.cells.length >= modal - 1 && l.cells.length >= 2);
  const spans = regular
    .flatMap((l) => l.cells.map((c) => ({ x0: c.x0, x1: c.x1 })))
    .sort((a, b) => a.x0 - b.x0);
  const columns: { x0: number; x1: number }[] = [];
  for (const s of spans) {
    const last = columns.at(-1);
    if (last && s.x0 <= last.x1) last.x1 = Math.max(last.x1, s.x1);
    else columns.push({ ...s });
  }
  if (columns.length < 2) return null;
  const rows: string[][] = [];
  for (const l of lines) {
    const cells = l.cells.map((c) => ({ k: columnOf(columns, c), text: c.text }));
    const wraps = cells.length === 1 && cells[0]!.k > 0 && rows.length > 0;
    const row = wraps ? rows.at(-1)! : new Array<string>(columns.length).fill('');
    for (const { k, text } of cells) row[k] = row[k] ? `${row[k]} ${text}` : text;
    if (!wraps) rows.push(row);
  }
  const filled = rows.filter((r) => r.filter((c) => c !== '').length >= 2).length;
  return rows.length >= 2 && filled >= rows.length * 0.6 ? rows : null;
}

/** The column a cell starts in, else the one it overlaps most, else the nearest. */
function columnOf(columns: readonly { x0: number; x1: number }[], c: { x0: number; x1: number }): number {
  const starts = columns.findIndex((col) => c.x0 >= col.x0 - 3 && c.x0 <= col.x1);
  if (starts >= 0) return starts;
  let best = 0;
  let score = -Infinity;
  for (const [k, col] of columns.entries()) {
    const overlap = Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0);
    const s = overlap > 0 ? overlap : -Math.min(Math.abs(c.x0 - col.x1), Math.abs(col.x0 - c.x1));
    if (s > score) [best, score] = [k, s];
  }
  return best;
}

/** A table block's text: TSV when its columns were recovered, else its lines joined. */
export function tableText(lines: readonly PdfLine[]): string {
  const rows = tableRows(lines);
  if (rows) return rows.map((r) => r.map((c) => c.replace(/\s+/g, ' ')).join('\t')).join('\n');
  return lines.map((l) => l.text).join(' ');
}

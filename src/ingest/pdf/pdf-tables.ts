/**
 * Table bodies as rows and columns. Each line of a table block is a row; its cells are the parts
 * between gaps wider than 1 em. Columns are the x ranges that the cells of the *regular* rows
 * (those with the most common number of cells, or one fewer) cover, merged where they overlap; every
 * cell goes to the column its centre falls in (a header cell spanning two columns goes to the one
 * under its centre). When at least two columns and two rows come out and most rows fill two or more
 * columns, the table is written as TSV (cells separated by tabs, rows by newlines); otherwise its
 * lines are joined as one paragraph, as printed.
 */
import type { PdfLine } from './pdf-lines.js';

/** The table as TSV rows, or null when its columns cannot be recovered. */
export function tableRows(lines: readonly PdfLine[]): string[][] | null {
  if (lines.length < 2) return null;
  const counts = new Map<number, number>();
  for (const l of lines) counts.set(l.cells.length, (counts.get(l.cells.length) ?? 0) + 1);
  const modal = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  if (modal < 2) return null;
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
  const rows = lines.map((l) => {
    const row = new Array<string>(columns.length).fill('');
    for (const c of l.cells) {
      const centre = (c.x0 + c.x1) / 2;
      let k = columns.findIndex((col) => centre <= col.x1);
      if (k < 0) k = columns.length - 1;
      row[k] = row[k] ? `${row[k]} ${c.text}` : c.text;
    }
    return row;
  });
  const filled = rows.filter((r) => r.filter((c) => c !== '').length >= 2).length;
  return filled >= rows.length * 0.6 ? rows : null;
}

/** A table block's text: TSV when its columns were recovered, else its lines joined. */
export function tableText(lines: readonly PdfLine[]): string {
  const rows = tableRows(lines);
  if (rows) return rows.map((r) => r.map((c) => c.replace(/\s+/g, ' ')).join('\t')).join('\n');
  return lines.map((l) => l.text).join(' ');
}

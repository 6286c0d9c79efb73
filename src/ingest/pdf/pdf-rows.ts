import type { PdfItem, PdfPageItems } from './pdf-engine.js';
import { isBlank } from './pdf-text.js';

/** A run of a row's items without a wide gap inside (one column's part of the row, or a table cell). */
export interface Segment {
  items: PdfItem[];
  x0: number;
  x1: number;
}

/** Items that carry ink: horizontal text with something to show. */
export function inkItems(page: PdfPageItems): PdfItem[] {
  return page.items.filter((i) => !i.rotated && (i.str.length > 0 || i.width > 0));
}

/** Groups items whose baselines are close into rows, top to bottom, each left to right. */
export function groupRows(items: readonly PdfItem[]): PdfItem[][] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const out: { y: number; size: number; items: PdfItem[] }[] = [];
  for (const it of sorted) {
    // Compare with the last few rows: superscripts sit a little above their line.
    let best: (typeof out)[number] | undefined;
    for (let k = out.length - 1; k >= Math.max(0, out.length - 3); k--) {
      const row = out[k]!;
      const tol = 0.5 * Math.max(row.size, it.size, 1);
      const d = Math.abs(row.y - it.y);
      if (d <= tol && (!best || d < Math.abs(best.y - it.y))) best = row;
    }
    if (best) {
      best.items.push(it);
      if (it.size > best.size && !isBlank(it.str)) {
        best.size = it.size;
        best.y = it.y;
      }
    } else out.push({ y: it.y, size: isBlank(it.str) ? 0 : it.size, items: [it] });
  }
  return out.map((r) => r.items.sort((a, b) => a.x - b.x));
}

/**
 * Splits a row at gaps wider than `gapEm` times the font size (word spaces are far narrower; the
 * gutter between columns and the space between table cells are wider). Blank items are spacing only.
 */
export function rowSegments(row: readonly PdfItem[], gapEm = 1): Segment[] {
  const out: Segment[] = [];
  let cur: Segment | undefined;
  for (const it of row) {
    if (isBlank(it.str) || it.width <= 0) {
      cur?.items.push(it);
      continue;
    }
    const end = it.x + it.width;
    if (cur && it.x - cur.x1 <= gapEm * Math.max(it.size, 1)) {
      cur.items.push(it);
      cur.x1 = Math.max(cur.x1, end);
    } else {
      cur = { items: [it], x0: it.x, x1: end };
      out.push(cur);
    }
  }
  return out;
}

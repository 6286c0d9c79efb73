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

/**
 * Groups items whose baselines are close into rows, top to bottom, each left to right. A row of
 * small raised items only (arrow labels and indices over a line of inline mathematics: "P₁ −cite→
 * P₂" set as "cite" above "₁ ₂" above "P −−→ P") is measured from its lowest item, so that the
 * line it sits on takes it in.
 */
export function groupRows(items: readonly PdfItem[]): PdfItem[][] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const out: { y: number; low: number; size: number; items: PdfItem[] }[] = [];
  for (const it of sorted) {
    // Compare with the last few rows: superscripts sit a little above their line.
    let best: (typeof out)[number] | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (let k = out.length - 1; k >= Math.max(0, out.length - 3); k--) {
      const row = out[k]!;
      const tol = 0.5 * Math.max(row.size, it.size, 1);
      const small = !isBlank(it.str) && row.size < 0.85 * it.size;
      const d = Math.min(Math.abs(row.y - it.y), small ? Math.abs(row.low - it.y) : Number.POSITIVE_INFINITY);
      if (d <= tol && d < bestD) {
        best = row;
        bestD = d;
      }
    }
    if (best) {
      best.items.push(it);
      best.low = Math.min(best.low, it.y);
      if (it.size > best.size && !isBlank(it.str)) {
        best.size = it.size;
        best.y = it.y;
        best.low = it.y;
      }
    } else out.push({ y: it.y, low: it.y, size: isBlank(it.str) ? 0 : it.size, items: [it] });
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

import type { PdfItem, PdfPageItems } from './pdf-engine.js';

/** Where a line sits: the left or right column of a two-column page, or across the page. */
export type Column = 'left' | 'right' | 'full';

/** One visual line (a row of items in one column), left to right. */
export interface PdfLine {
  page: number;
  text: string;
  x0: number;
  x1: number;
  /** Baseline of the line's dominant item. */
  y: number;
  /** Font size and font of most of the line's characters. */
  size: number;
  font: string;
  /** Every font used by a non-blank item of the line. */
  fonts: Set<string>;
  column: Column;
  /** Wide gaps between items (over 1.5 × size): table rows have several, prose none. */
  gaps: number;
  /** Text of leading small raised items (a footnote marker such as "1" or "*"). */
  marker: string;
}

/** Page layout found from item geometry. */
export interface PageLayout {
  page: PdfPageItems;
  /** x of the gutter between two columns, or null for a one-column page. */
  gutter: number | null;
  lines: PdfLine[];
  /** Rotated text (margin stamps such as arXiv identifiers). */
  rotated: string[];
}

const isBlank = (s: string) => s.trim() === '';

/** A candidate gutter and how well it splits the page. */
interface GutterFit {
  gutter: number;
  /** Share of rows with an item across the gutter. */
  crossing: number;
  /** Shares of the characters left and right of it. */
  left: number;
  right: number;
}

function fitAt(rowsOfPage: readonly PdfItem[][], gutter: number): GutterFit {
  let crossingRows = 0;
  let left = 0;
  let right = 0;
  let total = 0;
  for (const row of rowsOfPage) {
    let crosses = false;
    for (const it of row) {
      if (isBlank(it.str)) continue;
      total += it.str.length;
      if (it.x < gutter - 1 && it.x + it.width > gutter + 1) crosses = true;
      else if (it.x + it.width / 2 < gutter) left += it.str.length;
      else right += it.str.length;
    }
    if (crosses) crossingRows++;
  }
  const n = Math.max(1, rowsOfPage.length);
  return {
    gutter,
    crossing: crossingRows / n,
    left: left / Math.max(1, total),
    right: right / Math.max(1, total),
  };
}

/**
 * Finds the x near the middle of the page that the fewest rows cross (the centre of the widest
 * such run): the gutter of a two-column layout, if the page has one.
 */
export function findGutter(rowsOfPage: readonly PdfItem[][], pageWidth: number): GutterFit | null {
  if (rowsOfPage.length < 8) return null;
  const lo = Math.floor(pageWidth * 0.35);
  const hi = Math.ceil(pageWidth * 0.65);
  const cover = new Array<number>(hi - lo + 1).fill(0);
  for (const row of rowsOfPage) {
    const hit = new Uint8Array(hi - lo + 1);
    for (const it of row) {
      if (isBlank(it.str) || it.width <= 0) continue;
      const a = Math.max(lo, Math.floor(it.x + 1));
      const b = Math.min(hi, Math.ceil(it.x + it.width - 1));
      for (let x = a; x <= b; x++) hit[x - lo] = 1;
    }
    for (let i = 0; i < hit.length; i++) cover[i]! += hit[i]!;
  }
  const min = Math.min(...cover);
  let best = { start: 0, len: 0 };
  let start = -1;
  for (let i = 0; i <= cover.length; i++) {
    if (i < cover.length && cover[i]! <= min) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start > best.len) best = { start, len: i - start };
      start = -1;
    }
  }
  return fitAt(rowsOfPage, lo + best.start + best.len / 2);
}

const isTwoColumn = (f: GutterFit, maxCrossing: number) =>
  f.left > 0.15 && f.right > 0.15 && f.crossing <= maxCrossing;

/**
 * The gutter of each page, or null for one-column pages. A page that is clearly two-column fixes
 * the document's gutter; a page with more full-width rows (the title page, a wide table) is
 * two-column when it splits well at that same gutter.
 */
export function pageGutters(pages: readonly { rows: PdfItem[][]; width: number }[]): (number | null)[] {
  const fits = pages.map((p) => findGutter(p.rows, p.width));
  const clear = fits.filter((f): f is GutterFit => f !== null && isTwoColumn(f, 0.08)).map((f) => f.gutter);
  clear.sort((a, b) => a - b);
  const docGutter = clear.length > 0 ? clear[Math.floor(clear.length / 2)]! : null;
  return pages.map((p, i) => {
    const fit = fits[i];
    if (fit && isTwoColumn(fit, 0.08)) return fit.gutter;
    if (docGutter === null) return null;
    const atDoc = fitAt(p.rows, docGutter);
    return isTwoColumn(atDoc, 0.4) ? docGutter : null;
  });
}

/** Groups items whose baselines are close into rows, top to bottom. */
export function pageRows(page: PdfPageItems): PdfItem[][] {
  return rows(page.items.filter((i) => !i.rotated && (i.str.length > 0 || i.width > 0)));
}

function rows(items: readonly PdfItem[]): PdfItem[][] {
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

/** Joins a row's items into text, adding a space where the gap between items is word-sized. */
export function joinItems(items: readonly PdfItem[]): string {
  let text = '';
  let prevEnd = Number.NaN;
  for (const it of items) {
    const size = it.size || 10;
    if (text && !text.endsWith(' ') && !it.str.startsWith(' ') && it.x - prevEnd > 0.15 * size) text += ' ';
    text += it.str;
    if (!isBlank(it.str) || it.width > 0)
      prevEnd = Math.max(Number.isNaN(prevEnd) ? 0 : prevEnd, it.x + it.width);
  }
  return text
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Raised digits (footnote markers) are written as superscript characters, as they look. */
function toSuperscript(text: string): string {
  return text.replace(/\d/g, (d) => SUPERSCRIPT_DIGITS[Number(d)]!);
}

function makeLine(page: number, items: PdfItem[], column: Column): PdfLine | null {
  const ink = items.filter((i) => !isBlank(i.str));
  if (ink.length === 0) return null;
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const it of ink) {
    const s = Math.round(it.size * 2) / 2;
    bySize.set(s, (bySize.get(s) ?? 0) + it.str.length);
    byFont.set(it.font, (byFont.get(it.font) ?? 0) + it.str.length);
  }
  const size = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const font = [...byFont.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const main = ink.find((i) => Math.round(i.size * 2) / 2 === size) ?? ink[0]!;
  let marker = '';
  for (const it of ink) {
    if (it.size < size * 0.85 && it.y > main.y + size * 0.15) marker += it.str;
    else break;
  }

  let gaps = 0;
  let prevEnd = Number.NaN;
  for (const it of ink) {
    if (!Number.isNaN(prevEnd) && it.x - prevEnd > 1.5 * size) gaps++;
    prevEnd = Number.isNaN(prevEnd) ? it.x + it.width : Math.max(prevEnd, it.x + it.width);
  }
  const raised = (it: PdfItem) => it.size < size * 0.85 && it.y > main.y + size * 0.15;
  const shown = items.map((it) =>
    raised(it) && /^[\d,\s]+$/.test(it.str) ? { ...it, str: toSuperscript(it.str) } : it,
  );
  return {
    page,
    gaps,
    text: joinItems(shown),
    x0: ink[0]!.x,
    x1: Math.max(...ink.map((i) => i.x + i.width)),
    y: main.y,
    size,
    font,
    fonts: new Set(ink.map((i) => i.font)),
    column,
    marker: marker.trim(),
  };
}

/** Pages' items → lines in reading order (left column, then right, full-width rows breaking the flow). */
export function layoutPages(pages: readonly PdfPageItems[]): PageLayout[] {
  const withRows = pages.map((page) => ({ page, rows: pageRows(page), width: page.width }));
  const gutters = pageGutters(withRows);
  return withRows.map((p, i) => layoutPage(p.page, p.rows, gutters[i] ?? null));
}

function layoutPage(page: PdfPageItems, pageRowsOf: PdfItem[][], gutter: number | null): PageLayout {
  const rotated = page.items.filter((i) => i.rotated && !isBlank(i.str)).map((i) => i.str.trim());
  const lines: PdfLine[] = [];
  const push = (items: PdfItem[], column: Column) => {
    const line = makeLine(page.number, items, column);
    if (line) lines.push(line);
  };
  if (gutter === null) {
    for (const row of pageRowsOf) push(row, 'full');
    return { page, gutter, lines, rotated };
  }
  // Rows are regrouped within each column of a band, so a superscript joins its own column's line.
  let left: PdfItem[] = [];
  let right: PdfItem[] = [];
  const flush = () => {
    for (const row of rows(left)) push(row, 'left');
    for (const row of rows(right)) push(row, 'right');
    left = [];
    right = [];
  };
  for (const row of pageRowsOf) {
    const crosses = row.some((i) => !isBlank(i.str) && i.x < gutter - 1 && i.x + i.width > gutter + 1);
    if (crosses) {
      flush();
      push(row, 'full');
      continue;
    }
    for (const it of row) (it.x + it.width / 2 < gutter ? left : right).push(it);
  }
  flush();
  return { page, gutter, lines, rotated };
}

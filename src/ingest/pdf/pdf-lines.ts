import { findSeparators, type Separator } from './pdf-columns.js';
import type { PdfItem, PdfPageItems } from './pdf-engine.js';
import { cutRegions, orderRegions, type Region } from './pdf-regions.js';
import { groupRows, inkItems, rowSegments } from './pdf-rows.js';
import { isBlank, joinItems, toSuperscript } from './pdf-text.js';

/** One visual line (a row of items in one region), left to right. */
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
  /** The region of the page the line is in (its position in the page's reading order). */
  region: number;
  /** Wide gaps between items (over 1.5 × size): table rows have several, prose none. */
  gaps: number;
  /** The line's parts between gaps wider than 1 em (table cells), left to right. */
  cells: { x0: number; x1: number; text: string }[];
  /** Text of leading small raised items (a footnote marker such as "1" or "*"). */
  marker: string;
}

/** Page layout found from item geometry. */
export interface PageLayout {
  page: PdfPageItems;
  separators: Separator[];
  /** Regions in reading order. */
  regions: Region[];
  /** Lines in reading order: region by region, top to bottom. */
  lines: PdfLine[];
  /** Rotated text (margin stamps such as arXiv identifiers). */
  rotated: string[];
}

const raisedOver = (it: PdfItem, size: number, baseline: number) =>
  it.size < size * 0.85 && it.y > baseline + size * 0.15;

function makeLine(page: number, items: PdfItem[], region: number): PdfLine | null {
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
    if (raisedOver(it, size, main.y)) marker += it.str;
    else break;
  }
  let gaps = 0;
  let prevEnd = Number.NaN;
  for (const it of ink) {
    if (!Number.isNaN(prevEnd) && it.x - prevEnd > 1.5 * size) gaps++;
    prevEnd = Number.isNaN(prevEnd) ? it.x + it.width : Math.max(prevEnd, it.x + it.width);
  }
  const shown = items.map((it) =>
    raisedOver(it, size, main.y) && /^[\d,\s]+$/.test(it.str) ? { ...it, str: toSuperscript(it.str) } : it,
  );
  const cells = rowSegments(shown)
    .map((s) => ({ x0: s.x0, x1: s.x1, text: joinItems(s.items) }))
    .filter((c) => c.text !== '');
  return {
    page,
    gaps,
    cells,
    // Cells are split at gaps wider than any word space, where joining the items puts a space too.
    text: cells.map((c) => c.text).join(' '),
    x0: ink[0]!.x,
    x1: Math.max(...ink.map((i) => i.x + i.width)),
    y: main.y,
    size,
    font,
    fonts: new Set(ink.map((i) => i.font)),
    region,
    marker: marker.trim(),
  };
}

/**
 * A drop cap (one capital letter over two or more lines, at least 2.5 times the page's usual size)
 * belongs at the start of the highest line beside it: "O" + "ver the past three decades" →
 * "Over the past three decades".
 */
export function mergeDropCaps(items: readonly PdfItem[]): PdfItem[] {
  const sizes = items
    .filter((i) => !isBlank(i.str))
    .map((i) => i.size)
    .sort((a, b) => a - b);
  const usual = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const out = [...items];
  for (const cap of items) {
    if (!/^\p{Lu}$/u.test(cap.str) || cap.size < usual * 2.5) continue;
    const right = cap.x + cap.width;
    const beside = out.filter(
      (i) =>
        i !== cap &&
        !isBlank(i.str) &&
        i.x >= right - 1 &&
        i.x <= right + 2 * usual &&
        i.y >= cap.y - 2 &&
        i.y <= cap.y + cap.size,
    );
    const top = beside.sort((a, b) => b.y - a.y)[0];
    if (!top) continue;
    out[out.indexOf(top)] = { ...top, str: cap.str + top.str, x: cap.x, width: top.x + top.width - cap.x };
    out.splice(out.indexOf(cap), 1);
  }
  return out;
}

/** One page's items → separators, regions in reading order, and their lines. */
export function layoutPage(page: PdfPageItems): PageLayout {
  const rotated = page.items.filter((i) => i.rotated && !isBlank(i.str)).map((i) => i.str.trim());
  const rows = groupRows(mergeDropCaps(inkItems(page)));
  const separators = findSeparators(rows, page.width);
  const regions = orderRegions(cutRegions(rows, separators));
  const lines: PdfLine[] = [];
  for (const region of regions) {
    // Rows are regrouped within the region, so a superscript joins its own column's line.
    for (const row of groupRows(region.items)) {
      const line = makeLine(page.number, row, region.order);
      if (line) lines.push(line);
    }
  }
  return { page, separators, regions, lines, rotated };
}

/** Pages' items → lines in reading order. */
export function layoutPages(pages: readonly PdfPageItems[]): PageLayout[] {
  return pages.map(layoutPage);
}

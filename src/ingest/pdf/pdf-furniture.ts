/**
 * Page furniture: text that belongs to no paragraph of the paper. Running headers and footers and
 * page numbers (lines in the margins above or below the body frame, lines near the top or bottom
 * edge that repeat with digits masked on several pages, lone page numbers near an edge), margin
 * stamps (rotated text such as arXiv identifiers) and sidebars (a narrow region at the page edge in
 * small type beside the main text: the dates, licence and links column of JOSE/JOSS first pages,
 * eLife's author-notes margin).
 */
import type { Furniture } from '../../core/index.js';
import type { PageLayout, PdfLine } from './pdf-lines.js';
import type { Region } from './pdf-regions.js';
import { type DocStats, usesBodyFont } from './pdf-stats.js';

const PAGE_NUMBER = /^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

/** Text of a line with its digits masked, for spotting the same running header on every page. */
const shape = (text: string) => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/** A narrow edge region in small type beside a wider region of body text that it overlaps vertically. */
function isSidebar(region: Region, lines: readonly PdfLine[], layout: PageLayout, stats: DocStats): boolean {
  const width = layout.page.width;
  if (region.x1 - region.x0 > width * 0.3) return false;
  if (region.left !== null && region.right !== null) return false;
  const own = lines.filter((l) => l.region === region.order);
  const chars = own.reduce((n, l) => n + l.text.length, 0);
  const small = own.filter((l) => l.size < stats.bodySize * 0.95).reduce((n, l) => n + l.text.length, 0);
  if (chars === 0 || small < chars * 0.7) return false;
  return layout.regions.some(
    (r) =>
      r !== region &&
      r.x1 - r.x0 > (region.x1 - region.x0) * 1.5 &&
      Math.min(r.top, region.top) > Math.max(r.bottom, region.bottom) &&
      lines.some((l) => l.region === r.order && Math.abs(l.size - stats.bodySize) < 0.6),
  );
}

/**
 * Lines in the outer 5% of the page height, at most a quarter larger than text, set apart from the text by
 * more than two line gaps: a running header or footer even on a document too short to show it
 * repeating ("Downloaded from …", a journal footer with the issue and page).
 */
function edgeLines(p: PageLayout, stats: DocStats): Set<PdfLine> {
  const h = p.page.height;
  const atEdge = (l: PdfLine) => l.y > h * 0.95 || l.y < h * 0.05;
  const inner = p.lines.filter((l) => !atEdge(l));
  if (inner.length === 0) return new Set();
  const highest = Math.max(...inner.map((l) => l.y + l.size));
  const lowest = Math.min(...inner.map((l) => l.y));
  const out = new Set<PdfLine>();
  for (const l of p.lines) {
    if (!atEdge(l) || l.size > stats.bodySize * 1.25 || l.text.length > 200) continue;
    const apart =
      l.y > h / 2 ? l.y - highest > stats.lineGap * 2 : lowest - (l.y + l.size) > stats.lineGap * 2;
    if (apart) out.add(l);
  }
  return out;
}

/**
 * Lines beyond the body frame that are body text all the same: in body type, one line gap below
 * (or above) a line of text of their region, so they continue it. The frame is a quantile of all
 * body baselines, so the one page whose text runs a line lower than the others would otherwise
 * lose its last line ("curves, as related to … dark matter in" at the foot of a JOSE page).
 */
function frameOverruns(p: PageLayout, stats: DocStats, outside: (l: PdfLine) => boolean): Set<PdfLine> {
  const out = new Set<PdfLine>();
  const isBody = (l: PdfLine) => Math.abs(l.size - stats.bodySize) < 0.6 && usesBodyFont(l, stats);
  const near = (a: PdfLine, b: PdfLine) => Math.abs(a.y - b.y) <= stats.lineGap * 1.3 && a.y !== b.y;
  // Walk outwards from the frame: each kept line lets the next one beyond it be kept too.
  const walk = (lines: PdfLine[]) => {
    for (const l of lines) {
      if (!outside(l) || !isBody(l)) continue;
      const inner = p.lines.find(
        (o) => o !== l && o.region === l.region && near(o, l) && (!outside(o) || out.has(o)) && isBody(o),
      );
      if (inner) out.add(l);
    }
  };
  walk(p.lines.filter((l) => l.y < stats.bottom).sort((a, b) => b.y - a.y));
  walk(p.lines.filter((l) => l.y > stats.top).sort((a, b) => a.y - b.y));
  return out;
}

export function findFurniture(
  pages: readonly PageLayout[],
  stats: DocStats,
): { furniture: Furniture[]; isFurniture: (l: PdfLine) => boolean } {
  const repeats = new Map<string, Set<number>>();
  const nearEdge = (l: PdfLine, height: number) => l.y > height * 0.88 || l.y < height * 0.12;
  for (const p of pages) {
    for (const l of p.lines) {
      if (!nearEdge(l, p.page.height)) continue;
      const key = shape(l.text);
      if (!repeats.has(key)) repeats.set(key, new Set());
      repeats.get(key)!.add(p.page.number);
    }
  }
  const minRepeat = Math.max(3, Math.ceil(pages.length / 3));
  const marked = new Set<PdfLine>();
  const furniture: Furniture[] = [];
  const margin = stats.bodySize * 0.6;
  for (const p of pages) {
    const sidebars = new Set(p.regions.filter((r) => isSidebar(r, p.lines, p, stats)).map((r) => r.order));
    const edges = edgeLines(p, stats);
    // A heading at the top of a page may stand above the body frame; furniture is not larger than text.
    const beyond = (l: PdfLine) =>
      (l.y > stats.top + margin || l.y < stats.bottom - margin) && l.size < stats.bodySize * 1.1;
    const overruns = frameOverruns(p, stats, beyond);
    for (const l of p.lines) {
      const inMargin = beyond(l) && !overruns.has(l);
      const repeated =
        nearEdge(l, p.page.height) &&
        (repeats.get(shape(l.text))?.size ?? 0) >= minRepeat &&
        l.text.length < 200;
      const number = nearEdge(l, p.page.height) && PAGE_NUMBER.test(l.text) && l.size <= stats.bodySize * 1.3;
      const sidebar = sidebars.has(l.region);
      if (!inMargin && !repeated && !number && !sidebar && !edges.has(l)) continue;
      marked.add(l);
      const kind = PAGE_NUMBER.test(l.text)
        ? 'page-number'
        : sidebar && !inMargin && !repeated
          ? 'sidebar'
          : l.y > p.page.height / 2
            ? 'header'
            : 'footer';
      furniture.push({ page: p.page.number, kind, text: l.text });
    }
    for (const r of p.rotated) furniture.push({ page: p.page.number, kind: 'stamp', text: r });
  }
  return { furniture, isFurniture: (l) => marked.has(l) };
}

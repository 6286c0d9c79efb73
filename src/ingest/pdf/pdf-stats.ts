import type { Furniture } from '../../core/index.js';
import type { PageLayout, PdfLine } from './pdf-lines.js';

/** Figures of the whole document that tell body text from everything else. */
export interface DocStats {
  bodySize: number;
  /** Fonts that set at least 10% of the body-size text (a document may use several ids for it). */
  bodyFonts: Set<string>;
  /** Usual baseline-to-baseline distance of body lines. */
  lineGap: number;
  /** Baselines of the body text frame: lines above `top` or below `bottom` are in the margins. */
  top: number;
  bottom: number;
}

function mode<K>(counts: Map<K, number>, fallback: K): K {
  let best = fallback;
  let n = -1;
  for (const [k, c] of counts) if (c > n) [best, n] = [k, c];
  return best;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

export function documentStats(pages: readonly PageLayout[]): DocStats {
  const sizes = new Map<number, number>();
  for (const p of pages) for (const l of p.lines) sizes.set(l.size, (sizes.get(l.size) ?? 0) + l.text.length);
  const bodySize = mode(sizes, 10);
  const isBody = (l: PdfLine) => Math.abs(l.size - bodySize) < 0.6;
  const fonts = new Map<string, number>();
  const gaps = new Map<number, number>();
  const ys: number[] = [];
  for (const p of pages) {
    let prev: PdfLine | undefined;
    for (const l of p.lines) {
      if (!isBody(l)) continue;
      fonts.set(l.font, (fonts.get(l.font) ?? 0) + l.text.length);
      ys.push(l.y);
      if (prev && prev.region === l.region && prev.y > l.y) {
        const g = Math.round((prev.y - l.y) * 2) / 2;
        if (g > bodySize * 0.9 && g < bodySize * 2) gaps.set(g, (gaps.get(g) ?? 0) + 1);
      }
      prev = l;
    }
  }
  ys.sort((a, b) => a - b);
  const bodyChars = [...fonts.values()].reduce((a, b) => a + b, 0);
  // Too little body text to know the frame (a one-paragraph file): no margins.
  const framed = ys.length >= 40;
  return {
    bodySize,
    bodyFonts: new Set([...fonts].filter(([, n]) => n >= bodyChars * 0.1).map(([f]) => f)),
    lineGap: mode(gaps, bodySize * 1.2),
    top: framed ? quantile(ys, 0.995) : Number.POSITIVE_INFINITY,
    bottom: framed ? quantile(ys, 0.005) : Number.NEGATIVE_INFINITY,
  };
}

const PAGE_NUMBER = /^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

/** Text of a line with its digits masked, for spotting the same running header on every page. */
const shape = (text: string) => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/**
 * Splits off running headers, footers and page numbers: lines in the margins above or below the
 * body frame, and lines near the top or bottom edge that repeat (digits masked) on three or more
 * pages. Returns the furniture and a predicate for the lines to keep.
 */
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
    for (const l of p.lines) {
      const inMargin = l.y > stats.top + margin || l.y < stats.bottom - margin;
      const repeated =
        nearEdge(l, p.page.height) &&
        (repeats.get(shape(l.text))?.size ?? 0) >= minRepeat &&
        l.text.length < 200;
      const number = nearEdge(l, p.page.height) && PAGE_NUMBER.test(l.text) && l.size <= stats.bodySize * 1.3;
      if (!inMargin && !repeated && !number) continue;
      marked.add(l);
      const kind = PAGE_NUMBER.test(l.text) ? 'page-number' : l.y > p.page.height / 2 ? 'header' : 'footer';
      furniture.push({ page: p.page.number, kind, text: l.text });
    }
    for (const r of p.rotated) furniture.push({ page: p.page.number, kind: 'other', text: r });
  }
  return { furniture, isFurniture: (l) => marked.has(l) };
}

/** Whether any item of the line is set in a body font. */
export function usesBodyFont(line: PdfLine, stats: DocStats): boolean {
  for (const f of line.fonts) if (stats.bodyFonts.has(f)) return true;
  return false;
}

import type { PdfItem } from './pdf-engine.js';
import type { PageLayout, PdfLine } from './pdf-lines.js';

/** Figures of the whole document that tell body text from everything else. */
export interface DocStats {
  bodySize: number;
  /** Fonts that set at least 10% of the body-size text (a document may use several ids for it). */
  bodyFonts: Set<string>;
  /** Fonts whose glyphs all have the same advance (code). */
  monoFonts: Set<string>;
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

/**
 * Fonts set in fixed pitch: over at least 8 items of 4+ characters, half of them letters, the advance
 * per character (width / length / size) varies by under 2%. Proportional fonts vary far more from
 * item to item.
 */
function monospaceFonts(pages: readonly PageLayout[]): Set<string> {
  const ratios = new Map<string, number[]>();
  for (const p of pages) {
    for (const it of p.page.items as PdfItem[]) {
      if (it.rotated || it.str.length < 4 || it.size <= 0 || it.width <= 0) continue;
      let list = ratios.get(it.font);
      if (list && list.length >= 60) continue;
      // Digits have one width in most fonts (tabular figures): only text with letters tells.
      let letters = 0;
      for (let k = 0; k < it.str.length; k++) {
        const c = it.str.charCodeAt(k) | 0x20;
        if ((c >= 0x61 && c <= 0x7a) || c > 0xbf) letters++;
      }
      if (letters < it.str.length / 2) continue;
      if (!list) {
        list = [];
        ratios.set(it.font, list);
      }
      list.push(it.width / it.str.length / it.size);
    }
  }
  const out = new Set<string>();
  for (const [font, rs] of ratios) {
    if (rs.length < 8) continue;
    const mean = rs.reduce((a, b) => a + b, 0) / rs.length;
    const sd = Math.sqrt(rs.reduce((a, b) => a + (b - mean) ** 2, 0) / rs.length);
    if (sd / mean < 0.02) out.add(font);
  }
  return out;
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
  const monoFonts = monospaceFonts(pages);
  return {
    bodySize,
    bodyFonts: new Set(
      [...fonts].filter(([f, n]) => n >= bodyChars * 0.1 && !monoFonts.has(f)).map(([f]) => f),
    ),
    monoFonts,
    lineGap: mode(gaps, bodySize * 1.2),
    top: framed ? quantile(ys, 0.995) : Number.POSITIVE_INFINITY,
    bottom: framed ? quantile(ys, 0.005) : Number.NEGATIVE_INFINITY,
  };
}

/** Whether any item of the line is set in a body font. */
export function usesBodyFont(line: PdfLine, stats: DocStats): boolean {
  for (const f of line.fonts) if (stats.bodyFonts.has(f)) return true;
  return false;
}

import { describe, expect, it } from 'vitest';
import type { PdfItem, PdfPageItems } from './pdf-engine.js';
import { findFurniture } from './pdf-furniture.js';
import { layoutPages } from './pdf-lines.js';
import { documentStats } from './pdf-stats.js';

const item = (str: string, x: number, y: number, width: number, size = 10): PdfItem => ({
  str,
  x,
  y,
  width,
  size,
  font: size === 10 ? 'body' : 'small',
  rotated: false,
});

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda omicron'.split(' ');

/** A one-column page: body lines 12 pt apart from y 720 down to `lowest`, a running footer at 50. */
function page(number: number, lowest: number): PdfPageItems {
  const items: PdfItem[] = [];
  // Every line different (digits are masked when running heads are compared across pages).
  for (let y = 720, i = 0; y >= lowest; y -= 12, i++) {
    const words = WORDS.map((_, k) => WORDS[(k * (i + 1) + number) % WORDS.length]).join(' ');
    items.push(item(`p${number}-${i} ${words}`, 60, y, 470));
  }
  items.push(item(`Author et al. (2023). A Journal, 6(66), ${number}.`, 60, 50, 300, 7.5));
  return { number, width: 600, height: 800, items };
}

describe('page furniture', () => {
  it('keeps as text a last line below the usual body frame when it continues the text above it', () => {
    // Five pages end at y 108; page 3 runs one line lower, to y 96 (below the frame's quantile).
    const pages = layoutPages([page(1, 108), page(2, 108), page(3, 96), page(4, 108), page(5, 108)]);
    const stats = documentStats(pages);
    expect(stats.bottom).toBeGreaterThan(96);
    const { furniture, isFurniture } = findFurniture(pages, stats);
    const last = pages[2]!.lines.find((l) => Math.abs(l.y - 96) < 0.5)!;
    expect(last.text).toMatch(/^p3-52 /);
    expect(isFurniture(last)).toBe(false);
    // The running footer is still furniture on every page.
    expect(furniture.filter((f) => f.text.startsWith('Author et al.'))).toHaveLength(5);
  });

  it('still takes a body-size line set apart below the frame for a footer', () => {
    const pages = layoutPages([page(1, 108), page(2, 108), page(3, 108), page(4, 108)]);
    pages[1]!.lines.push({ ...pages[1]!.lines[0]!, text: 'Preprint, do not cite', y: 70 });
    const stats = documentStats(pages);
    const { isFurniture } = findFurniture(pages, stats);
    expect(isFurniture(pages[1]!.lines.at(-1)!)).toBe(true);
  });
});

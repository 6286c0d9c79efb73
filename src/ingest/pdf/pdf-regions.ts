/**
 * A page's text cut into regions by its separators, in reading order.
 *
 * Each item belongs to the *cell* between the nearest separators left and right of it at its row,
 * and to the *band* of rows between consecutive separator ends (so a title above two columns and a
 * footnote below them are different regions even though no separator bounds either). Regions are
 * ordered as in Breuel's layout analysis ("High performance document layout analysis", 2003): `a`
 * comes before `b` when their x ranges overlap and `a` is above `b`, or when `a` lies entirely left of
 * `b` and no third region between them vertically overlaps both (a full-width figure between two
 * column stretches stops the left column below it from coming before the right column above it).
 * A topological sort then reads the page, taking the highest ready region first.
 */
import type { Separator } from './pdf-columns.js';
import type { PdfItem } from './pdf-engine.js';
import { isBlank } from './pdf-text.js';

export interface Region {
  /** Position in reading order on the page (0-based). */
  order: number;
  /** Separators bounding it, if any (null = the page edge). */
  left: Separator | null;
  right: Separator | null;
  x0: number;
  x1: number;
  /** y of the top of its highest glyph and of its lowest baseline (PDF space: y grows upwards). */
  top: number;
  bottom: number;
  items: PdfItem[];
}

/** Cuts a page's rows into regions (not yet ordered). */
export function cutRegions(rows: readonly PdfItem[][], separators: readonly Separator[]): Region[] {
  const bounds = new Set<number>();
  for (const s of separators) {
    bounds.add(s.firstRow);
    bounds.add(s.lastRow + 1);
  }
  const sortedBounds = [...bounds].sort((a, b) => a - b);
  const byKey = new Map<string, Region>();
  for (const [k, row] of rows.entries()) {
    const band = sortedBounds.filter((b) => b <= k).length;
    const covering = separators.filter((s) => s.firstRow <= k && k <= s.lastRow);
    for (const it of row) {
      const cx = it.x + Math.max(0, it.width) / 2;
      let left: Separator | null = null;
      let right: Separator | null = null;
      for (const s of covering) {
        if (s.x <= cx && (!left || s.x > left.x)) left = s;
        if (s.x > cx && (!right || s.x < right.x)) right = s;
      }
      const key = `${left?.id ?? '-'}|${right?.id ?? '-'}|${band}`;
      let region = byKey.get(key);
      if (!region) {
        region = {
          order: 0,
          left,
          right,
          x0: Infinity,
          x1: -Infinity,
          top: -Infinity,
          bottom: Infinity,
          items: [],
        };
        byKey.set(key, region);
      }
      region.items.push(it);
      if (!isBlank(it.str)) {
        region.x0 = Math.min(region.x0, it.x);
        region.x1 = Math.max(region.x1, it.x + it.width);
        region.top = Math.max(region.top, it.y + it.size * 0.8);
        region.bottom = Math.min(region.bottom, it.y);
      }
    }
  }
  return [...byKey.values()].filter((r) => Number.isFinite(r.x0));
}

const overlapX = (a: Region, b: Region) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 1;
const centreY = (r: Region) => (r.top + r.bottom) / 2;

/** Whether `a` must be read before `b` (see the module comment). */
function before(a: Region, b: Region, all: readonly Region[]): boolean {
  if (overlapX(a, b)) return centreY(a) > centreY(b);
  if (a.x1 > b.x0 + 1) return false;
  const hi = Math.max(centreY(a), centreY(b));
  const lo = Math.min(centreY(a), centreY(b));
  for (const c of all) {
    if (c === a || c === b) continue;
    const y = centreY(c);
    if (y < hi && y > lo && overlapX(c, a) && overlapX(c, b)) return false;
  }
  return true;
}

/** Regions in reading order (topological sort; on a cycle, the highest remaining region goes next). */
export function orderRegions(regions: readonly Region[]): Region[] {
  const n = regions.length;
  const succ: number[][] = regions.map(() => []);
  const indeg = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && before(regions[i]!, regions[j]!, regions)) {
        succ[i]!.push(j);
        indeg[j]!++;
      }
    }
  }
  const done = new Array<boolean>(n).fill(false);
  const out: Region[] = [];
  const pick = (ready: (i: number) => boolean) => {
    let best = -1;
    for (let i = 0; i < n; i++) {
      if (done[i] || !ready(i)) continue;
      const r = regions[i]!;
      const b = regions[best];
      if (!b || r.top > b.top + 1 || (Math.abs(r.top - b.top) <= 1 && r.x0 < b.x0)) best = i;
    }
    return best;
  };
  while (out.length < n) {
    let i = pick((k) => indeg[k] === 0);
    if (i < 0) i = pick(() => true);
    done[i] = true;
    out.push(regions[i]!);
    for (const j of succ[i]!) indeg[j]!--;
  }
  return out.map((r, order) => ({ ...r, order }));
}

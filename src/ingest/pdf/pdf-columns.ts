/**
 * Column gutters found from white space. A *separator* is a vertical channel at x that no row of
 * a run of consecutive rows crosses, with text on both sides: at least `MIN_SIDE_ROWS` rows of the
 * run have a wide segment (≥ `MIN_SIDE` of the page width) ending just left of it (within
 * `MAX_GUTTER`) and as many have one starting just right of it. That holds for the gutter of two- and three-column pages, for a sidebar
 * beside the main text and for author blocks set side by side, and not for the white space between
 * table cells (narrow), a display formula and its number (one side narrow) or the margins (one side
 * empty). A row that crosses x (a title, a wide figure's caption) ends the run, so a page can have
 * several separators at the same x, one per stretch of columns.
 */
import type { PdfItem } from './pdf-engine.js';
import { rowSegments, type Segment } from './pdf-rows.js';

export interface Separator {
  id: number;
  /** x of the channel's middle. */
  x: number;
  /** First and last row (indices into the page's rows) that the separator splits. */
  firstRow: number;
  lastRow: number;
  /** y of the top of the first row and the baseline of the last (PDF space). */
  top: number;
  bottom: number;
}

/** Share of the page width a segment must span to count as a column's text beside a channel. */
const MIN_SIDE = 0.15;
/** Widest gutter, as a share of the page width: the text on each side must end this close to it. */
const MAX_GUTTER = 0.05;
/** Rows with such a segment needed on each side. */
const MIN_SIDE_ROWS = 3;

interface Run {
  x: number;
  first: number;
  last: number;
}

/** Per row, for each x: is it covered by a segment; does a wide segment end left of it / start right of it. */
interface RowCover {
  covered: Uint8Array;
  wideLeft: Uint8Array;
  wideRight: Uint8Array;
}

function rowCover(segments: readonly Segment[], width: number, minSide: number, maxGutter: number): RowCover {
  const covered = new Uint8Array(width);
  const wideLeft = new Uint8Array(width);
  const wideRight = new Uint8Array(width);
  for (const s of segments) {
    const a = Math.max(0, Math.floor(s.x0));
    const b = Math.min(width - 1, Math.ceil(s.x1));
    covered.fill(1, a, b + 1);
  }
  // The segment immediately left of x is wide → wideLeft[x]; likewise right.
  // The segment immediately left of x is wide and ends near x → wideLeft[x]; likewise right.
  let last: Segment | undefined;
  let si = 0;
  const sorted = [...segments].sort((p, q) => p.x0 - q.x0);
  for (let x = 0; x < width; x++) {
    while (si < sorted.length && sorted[si]!.x1 < x) last = sorted[si++];
    wideLeft[x] = last && last.x1 - last.x0 >= minSide && x - last.x1 <= maxGutter ? 1 : 0;
  }
  let next: Segment | undefined;
  si = sorted.length - 1;
  for (let x = width - 1; x >= 0; x--) {
    while (si >= 0 && sorted[si]!.x0 > x) next = sorted[si--];
    wideRight[x] = next && next.x1 - next.x0 >= minSide && next.x0 - x <= maxGutter ? 1 : 0;
  }
  return { covered, wideLeft, wideRight };
}

/** The separators of one page, given its rows (top to bottom). */
export function findSeparators(rows: readonly PdfItem[][], pageWidth: number): Separator[] {
  const width = Math.max(1, Math.ceil(pageWidth));
  if (rows.length < MIN_SIDE_ROWS) return [];
  const minSide = MIN_SIDE * pageWidth;
  const covers = rows.map((r) => rowCover(rowSegments(r), width, minSide, MAX_GUTTER * pageWidth));
  const runs: Run[] = [];
  for (let x = 0; x < width; x++) {
    let first = -1;
    let left = 0;
    let right = 0;
    const close = (last: number) => {
      if (first >= 0 && left >= MIN_SIDE_ROWS && right >= MIN_SIDE_ROWS) runs.push({ x, first, last });
      first = -1;
      left = 0;
      right = 0;
    };
    for (let r = 0; r < rows.length; r++) {
      const c = covers[r]!;
      if (c.covered[x]) {
        close(r - 1);
        continue;
      }
      if (first < 0) first = r;
      left += c.wideLeft[x]!;
      right += c.wideRight[x]!;
    }
    close(rows.length - 1);
  }
  return dropRedundant(mergeRuns(runs), rows).map((sep) => ({
    ...sep,
    top: Math.max(...rows[sep.firstRow]!.map((i) => i.y + i.size)),
    bottom: Math.min(...rows[sep.lastRow]!.map((i) => i.y)),
  }));
}

/**
 * A wide gutter yields several channels (at x where the left column's lines are shorter, the
 * channel runs over fewer rows, or it is cut short by a line that reaches into the gutter). Two
 * channels whose rows overlap with no text between them in those rows are one: the longer one is
 * kept, extended over the rows of the other.
 */
function dropRedundant(separators: readonly Separator[], rows: readonly PdfItem[][]): Separator[] {
  const byLength = [...separators].sort((a, b) => b.lastRow - b.firstRow - (a.lastRow - a.firstRow));
  const kept: Separator[] = [];
  const inkBetween = (a: Separator, b: Separator, first: number, last: number) => {
    const lo = Math.min(a.x, b.x);
    const hi = Math.max(a.x, b.x);
    for (let r = first; r <= last; r++) {
      for (const it of rows[r]!) {
        if (it.str.trim() === '') continue;
        const cx = it.x + it.width / 2;
        if (cx > lo && cx < hi) return true;
      }
    }
    return false;
  };
  for (const s of byLength) {
    const same = kept.find((k) => {
      const first = Math.max(k.firstRow, s.firstRow);
      const last = Math.min(k.lastRow, s.lastRow);
      return first <= last && !inkBetween(k, s, first, last);
    });
    if (same) {
      same.firstRow = Math.min(same.firstRow, s.firstRow);
      same.lastRow = Math.max(same.lastRow, s.lastRow);
    } else kept.push({ ...s });
  }
  return kept.sort((a, b) => a.firstRow - b.firstRow || a.x - b.x).map((s, id) => ({ ...s, id }));
}

/**
 * Runs at neighbouring x over overlapping rows are one channel: it keeps the longest run, at the
 * middle of the x range that has exactly that run.
 */
function mergeRuns(runs: readonly Run[]): Separator[] {
  const groups: Run[][] = [];
  for (const run of runs) {
    const group = groups.find((g) => {
      const last = g[g.length - 1]!;
      return run.x - last.x <= 1 && run.first <= last.last && run.last >= last.first;
    });
    if (group) group.push(run);
    else groups.push([run]);
  }
  const out: Separator[] = [];
  for (const g of groups) {
    const best = g.reduce((a, b) => (b.last - b.first > a.last - a.first ? b : a));
    const same = g.filter((r) => r.first === best.first && r.last === best.last);
    const x = (same[0]!.x + same[same.length - 1]!.x) / 2;
    out.push({ id: out.length, x, firstRow: best.first, lastRow: best.last, top: 0, bottom: 0 });
  }
  return out;
}

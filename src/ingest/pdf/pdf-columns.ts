/**
 * Column gutters found from white space. A *separator* is a vertical channel at x that no row of a
 * run of consecutive rows crosses, with column text on both sides: in at least `MIN_SIDE_ROWS` rows
 * of the run a *wide* segment (≥ `WIDE` of the page width) ends just left of x (within
 * `MAX_GUTTER`), and in as many a wide one starts just right of it. A narrow column beside a
 * column in other type beside a column of text (a correspondence address in small print beside an
 * article's first paragraphs) also counts: one side with `MIN_STRONG_ROWS` rows of a *strong*
 * segment (≥ `STRONG`), the other with `MIN_SIDE_ROWS` rows of a segment of at least `NARROW`, in
 * a font size that differs by half a point or more (a table's narrow column is set like its others). That holds for the gutters of two- and
 * three-column pages, for sidebars and for author blocks set side by side, and not for the white
 * space between table cells (narrow, or too far apart), a display formula and its number (one side
 * narrow) or the margins (one side empty). A row that crosses x (a title, a wide figure's caption)
 * ends the run, so a page can have several separators at the same x, one per stretch of columns.
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

/** Segment widths, as shares of the page width, that make a column's text beside a channel. */
const NARROW = 0.06;
const WIDE = 0.15;
const STRONG = 0.25;
/** Widest gutter, as a share of the page width: the text on each side must end this close to it. */
const MAX_GUTTER = 0.05;
const MIN_SIDE_ROWS = 3;
const MIN_STRONG_ROWS = 5;

/** How wide the segment beside x is: 0 none (or too far), 1 narrow, 2 wide, 3 strong. */
const NONE = 0;
const LEVEL_NARROW = 1;
const LEVEL_WIDE = 2;
const LEVEL_STRONG = 3;

interface Run {
  x: number;
  first: number;
  last: number;
}

/** The font size of most of a page's characters. */
function usualSize(rows: readonly PdfItem[][]): number {
  const bySize = new Map<number, number>();
  for (const r of rows)
    for (const it of r)
      bySize.set(Math.round(it.size), (bySize.get(Math.round(it.size)) ?? 0) + it.str.length);
  let best = 0;
  let n = -1;
  for (const [size, c] of bySize) if (c > n) [best, n] = [size, c];
  return best;
}

/** A row's segments, left to right, with their widths' levels and font sizes. */
interface RowSegments {
  x0: number[];
  x1: number[];
  level: number[];
  size: number[];
}

/** Font size of most of a segment's characters. */
function segmentSize(s: Segment): number {
  const bySize = new Map<number, number>();
  for (const it of s.items) bySize.set(it.size, (bySize.get(it.size) ?? 0) + it.str.length);
  let best = 0;
  let n = -1;
  for (const [size, c] of bySize) if (c > n) [best, n] = [size, c];
  return best;
}

function rowModel(segments: readonly Segment[], pageWidth: number, minSize: number): RowSegments {
  const sorted = [...segments].sort((p, q) => p.x0 - q.x0);
  const out: RowSegments = { x0: [], x1: [], level: [], size: [] };
  for (const s of sorted) {
    const size = segmentSize(s);
    const w = (s.x1 - s.x0) / pageWidth;
    const level = w >= STRONG ? LEVEL_STRONG : w >= WIDE ? LEVEL_WIDE : w >= NARROW ? LEVEL_NARROW : NONE;
    out.x0.push(Math.floor(s.x0));
    out.x1.push(Math.ceil(s.x1));
    out.level.push(size < minSize ? NONE : level);
    out.size.push(size);
  }
  return out;
}

/** What lies at x in a row: covered, or the levels and sizes of the segments just left and right. */
interface Probe {
  covered: boolean;
  left: number;
  right: number;
  leftSize: number;
  rightSize: number;
}

function probe(row: RowSegments, x: number, maxGutter: number, out: Probe): void {
  let k = 0;
  while (k < row.x0.length && row.x1[k]! < x) k++;
  out.covered = k < row.x0.length && row.x0[k]! <= x;
  const before = k - 1;
  out.left = before >= 0 && x - row.x1[before]! <= maxGutter ? row.level[before]! : NONE;
  out.leftSize = before >= 0 ? row.size[before]! : 0;
  out.right = !out.covered && k < row.x0.length && row.x0[k]! - x <= maxGutter ? row.level[k]! : NONE;
  out.rightSize = k < row.x0.length ? row.size[k]! : 0;
}

/** The x that lie within the widest gutter of both a segment's end and another's start. */
function candidateXs(rows: readonly RowSegments[], width: number, maxGutter: number): number[] {
  const afterEnd = new Uint8Array(width + 1);
  const beforeStart = new Uint8Array(width + 1);
  for (const row of rows) {
    for (let k = 0; k < row.x0.length; k++) {
      if (row.level[k] === NONE) continue;
      afterEnd.fill(1, Math.max(0, row.x1[k]!), Math.min(width, row.x1[k]! + Math.ceil(maxGutter)) + 1);
      beforeStart.fill(1, Math.max(0, row.x0[k]! - Math.ceil(maxGutter)), Math.min(width, row.x0[k]!) + 1);
    }
  }
  const out: number[] = [];
  // Every other point is enough to find a gutter (the narrowest is several points wide).
  for (let x = 0; x < width; x += 2) if (afterEnd[x] && beforeStart[x]) out.push(x);
  return out;
}

/** Counts of rows by the level of the segment beside the channel on one side, and their mean size. */
class SideCount {
  wide = 0;
  strong = 0;
  narrow = 0;
  private sizes = 0;
  add(level: number, size: number): void {
    if (level >= LEVEL_NARROW) {
      this.narrow++;
      this.sizes += size;
    }
    if (level >= LEVEL_WIDE) this.wide++;
    if (level >= LEVEL_STRONG) this.strong++;
  }
  get size(): number {
    return this.narrow === 0 ? 0 : this.sizes / this.narrow;
  }
  reset(): void {
    this.wide = 0;
    this.strong = 0;
    this.narrow = 0;
    this.sizes = 0;
  }
}

const isChannel = (l: SideCount, r: SideCount) =>
  (l.wide >= MIN_SIDE_ROWS && r.wide >= MIN_SIDE_ROWS) ||
  (Math.abs(l.size - r.size) >= 0.5 &&
    ((l.strong >= MIN_STRONG_ROWS && r.narrow >= MIN_SIDE_ROWS) ||
      (r.strong >= MIN_STRONG_ROWS && l.narrow >= MIN_SIDE_ROWS)));

/**
 * The runs of rows at one x that make a channel. The run spans the rows with column text beside x,
 * and the rows next to them that do not cross x and sit closer to the columns than to the crossing
 * text beyond (a heading beside a table's first row belongs to the columns; the short last line of
 * a full-width paragraph above them does not).
 */
class ChannelScan {
  private readonly left = new SideCount();
  private readonly right = new SideCount();
  private readonly probe: Probe = { covered: false, left: 0, right: 0, leftSize: 0, rightSize: 0 };
  private start = 0;
  private first = -1;
  private last = -1;

  constructor(
    private readonly models: readonly RowSegments[],
    private readonly baseline: readonly number[],
    private readonly maxGutter: number,
    private readonly runs: Run[],
  ) {}

  at(x: number): void {
    this.start = 0;
    this.first = -1;
    const at = this.probe;
    for (let r = 0; r < this.models.length; r++) {
      probe(this.models[r]!, x, this.maxGutter, at);
      if (at.covered) {
        this.close(x, r - 1);
        this.start = r + 1;
        continue;
      }
      if (at.left >= LEVEL_NARROW || at.right >= LEVEL_NARROW) {
        if (this.first < 0) this.first = r;
        this.last = r;
      }
      this.left.add(at.left, at.leftSize);
      this.right.add(at.right, at.rightSize);
    }
    this.close(x, this.models.length - 1);
  }

  private gap(a: number, b: number): number {
    return a < 0 || b >= this.baseline.length ? Infinity : this.baseline[a]! - this.baseline[b]!;
  }

  private close(x: number, end: number): void {
    if (this.first >= 0 && isChannel(this.left, this.right)) {
      let { first, last } = this;
      while (first > this.start && this.gap(first - 1, first) < this.gap(first - 2, first - 1)) first--;
      while (last < end && this.gap(last, last + 1) < this.gap(last + 1, last + 2)) last++;
      this.runs.push({ x, first, last });
    }
    this.first = -1;
    this.left.reset();
    this.right.reset();
  }
}

/** The separators of one page, given its rows (top to bottom). */
export function findSeparators(rows: readonly PdfItem[][], pageWidth: number): Separator[] {
  const width = Math.max(1, Math.ceil(pageWidth));
  if (rows.length < MIN_SIDE_ROWS) return [];
  const maxGutter = MAX_GUTTER * pageWidth;
  // Text far smaller than the page's usual size (labels inside a figure) makes no column.
  const minSize = 0.6 * usualSize(rows);
  const models = rows.map((r) => rowModel(rowSegments(r), pageWidth, minSize));
  const runs: Run[] = [];
  const baseline = rows.map((r) => Math.max(...r.map((i) => i.y)));
  const scan = new ChannelScan(models, baseline, maxGutter, runs);
  for (const x of candidateXs(models, width, maxGutter)) scan.at(x);
  return bridgeGaps(dropRedundant(mergeRuns(runs), rows), rows).map((sep) => ({
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
 * A gutter interrupted by one or two rows in which no single item crosses it by more than 3 pt (a long code line or
 * URL that runs into the gutter up to the next column's text, so the row's parts touch) is one
 * gutter: the separators above and below are joined through those rows.
 */
function bridgeGaps(separators: readonly Separator[], rows: readonly PdfItem[][]): Separator[] {
  const out = [...separators].sort((a, b) => a.firstRow - b.firstRow);
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const j = out.findIndex(
      (b, k) => k > i && Math.abs(b.x - a.x) <= 4 && b.firstRow > a.lastRow && b.firstRow - a.lastRow <= 3,
    );
    if (j < 0) continue;
    const b = out[j]!;
    let crossed = false;
    for (let r = a.lastRow + 1; r < b.firstRow && !crossed; r++) {
      crossed = rows[r]!.some((it) => it.str.trim() !== '' && it.x < a.x - 3 && it.x + it.width > a.x + 3);
    }
    if (crossed) continue;
    out[i] = { ...a, lastRow: b.lastRow };
    out.splice(j, 1);
    i--;
  }
  return out.map((s, id) => ({ ...s, id }));
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
      return run.x - last.x <= 2 && run.first <= last.last && run.last >= last.first;
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

import { CAPTION, headingLevel, isNumberedHeading } from './pdf-headings.js';
import type { PageLayout, PdfLine } from './pdf-lines.js';
import { type DocStats, usesBodyFont } from './pdf-stats.js';

export type BlockKind = 'title' | 'heading' | 'body' | 'caption' | 'footnote' | 'float';

/** Consecutive lines of one page and column that form one unit of text. */
export interface Block {
  kind: BlockKind;
  page: number;
  /** The page region (reading-order position) the block is in. */
  region: number;
  lines: PdfLine[];
  /** For headings. */
  level: number;
  /** The first line starts indented from the column's left edge (a new paragraph). */
  indented: boolean;
}

interface ColumnFrame {
  left: number;
  right: number;
  /** Lowest baseline of body-size text in the column (footnotes sit below it). */
  lowestBody: number;
}

function roundedMode(values: readonly number[], fallback: number): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(Math.round(v), (counts.get(Math.round(v)) ?? 0) + 1);
  let best = fallback;
  let n = 0;
  for (const [k, c] of counts) if (c > n) [best, n] = [k, c];
  return best;
}

function columnFrames(lines: readonly PdfLine[], stats: DocStats): Map<number, ColumnFrame> {
  const frames = new Map<number, ColumnFrame>();
  for (const column of new Set(lines.map((l) => l.region))) {
    const own = lines.filter((l) => l.region === column);
    if (own.length === 0) continue;
    const body = own.filter((l) => Math.abs(l.size - stats.bodySize) < 0.6);
    const ref = body.length > 0 ? body : own;
    frames.set(column, {
      left: roundedMode(
        ref.map((l) => l.x0),
        own[0]!.x0,
      ),
      right: roundedMode(
        ref.map((l) => l.x1),
        own[0]!.x1,
      ),
      lowestBody: Math.min(...ref.map((l) => l.y)),
    });
  }
  return frames;
}

/** A table row: several wide gaps, or mostly numbers. */
export function isTabular(line: PdfLine): boolean {
  if (line.gaps >= 2) return true;
  const tokens = line.text.split(' ');
  const numbers = tokens.filter((t) => /^[-+±]?[\d.,]*\d[\d.,]*%?$/.test(t)).length;
  return tokens.length >= 3 && numbers / tokens.length >= 0.5;
}

const endsSentence = (text: string) => /[.!?:;]["'”’)\]]*$/.test(text.trim());

/** Whether a new block starts at `line`, given the previous line of the same page. */
function breaksBefore(prev: PdfLine, line: PdfLine, next: PdfLine | undefined, ctx: BlockContext): boolean {
  const { stats, frame } = ctx;
  if (prev.region !== line.region || line.y >= prev.y) return true;
  const expected = stats.lineGap * (Math.max(line.size, prev.size) / stats.bodySize);
  if (prev.y - line.y > expected * 1.45) return true;
  if (Math.abs(line.size - prev.size) > 0.8) return true;
  if (ctx.headings.has(line) || ctx.headings.has(prev)) return true;
  if (CAPTION.test(line.text)) return true;
  if (isTabular(prev) !== isTabular(line)) return true;
  const indent = line.x0 - frame.left;
  const prevIndent = prev.x0 - frame.left;
  if (ctx.inReferences) {
    return indent < line.size * 0.5 && (prevIndent > line.size * 0.5 || endsSentence(prev.text));
  }
  const isIndented = indent > line.size * 0.7 && indent < line.size * 4;
  const nextFlush = !next || next.region !== line.region || Math.abs(next.x0 - frame.left) < line.size * 0.5;
  if (isIndented && nextFlush && endsSentence(prev.text)) return true;
  const short = prev.x1 < frame.right - line.size * 2.5;
  return short && endsSentence(prev.text) && /^[\p{Lu}\d]/u.test(line.text);
}

interface BlockContext {
  stats: DocStats;
  frame: ColumnFrame;
  headings: Map<PdfLine, number>;
  inReferences: boolean;
}

function classify(block: Block, frame: ColumnFrame, stats: DocStats): BlockKind {
  if (block.kind === 'heading' || block.kind === 'title') return block.kind;
  const first = block.lines[0]!;
  if (CAPTION.test(first.text)) return 'caption';
  const small = first.size < stats.bodySize * 0.92;
  const tabular = block.lines.filter(isTabular).length;
  if (tabular > 0 && tabular >= block.lines.length / 2) return 'float';
  if (!small) return 'body';
  const belowBody = block.lines.every((l) => l.y < frame.lowestBody - 1);
  const marked = first.marker !== '' || /^(?:\d{1,2}|[*†‡§¶])(?:\s|\p{Lu}|$)/u.test(first.text);
  if (belowBody && marked) return 'footnote';
  return 'float';
}

/** Page 1 lines at the top in the largest font: the title. */
function titleLines(layout: PageLayout, stats: DocStats): Set<PdfLine> {
  const out = new Set<PdfLine>();
  if (layout.page.number !== 1 || layout.lines.length === 0) return out;
  const max = Math.max(...layout.lines.map((l) => l.size));
  if (max < stats.bodySize * 1.2) return out;
  for (const l of layout.lines) {
    if (l.size >= max - 0.5 && l.y > layout.page.height * 0.5) out.add(l);
    else if (out.size > 0) break;
  }
  return out;
}

/**
 * Groups a page's lines (reading order, furniture removed) into blocks and classifies them.
 * `state.inReferences` carries the References section across pages.
 */
export function pageBlocks(
  layout: PageLayout,
  lines: readonly PdfLine[],
  stats: DocStats,
  state: { inReferences: boolean },
): Block[] {
  const frames = columnFrames(lines, stats);
  const titles = titleLines({ ...layout, lines: [...lines] }, stats);
  const headings = new Map<PdfLine, number>();
  for (const l of lines) {
    if (titles.has(l)) continue;
    const level = headingLevel(l, stats);
    if (level !== null) headings.set(l, level);
  }
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const [i, line] of lines.entries()) {
    const frame = frames.get(line.region)!;
    const prev = i > 0 ? lines[i - 1] : undefined;
    const level = headings.get(line);
    const kind: BlockKind = titles.has(line) ? 'title' : level !== undefined ? 'heading' : 'body';
    const continuesHeading =
      current?.kind === 'heading' &&
      kind === 'body' &&
      prev !== undefined &&
      line.font === prev.font &&
      line.size === prev.size &&
      !usesBodyFont(line, stats) &&
      prev.y - line.y < stats.lineGap * 1.5;
    const continuesTitle = current?.kind === 'title' && kind === 'title';
    const ctx = { stats, frame, headings, inReferences: state.inReferences };
    const next = lines[i + 1];
    const inHeading = current?.kind === 'heading' || current?.kind === 'title';
    const joins = inHeading
      ? continuesHeading || continuesTitle
      : kind === 'body' && prev !== undefined && !breaksBefore(prev, line, next, ctx);
    if (current && joins) {
      current.lines.push(line);
      continue;
    }
    if (current && kind === 'heading' && current.kind === 'heading' && !isNumberedHeading(line.text)) {
      // A wrapped heading: its second line is bold too but carries no number.
      if (prev && line.font === prev.font && prev.y - line.y < stats.lineGap * 1.5) {
        current.lines.push(line);
        continue;
      }
    }
    if (kind === 'heading') state.inReferences = /^(?:\d+\.?\s*)?(references|bibliography)$/i.test(line.text);
    current = {
      kind,
      page: line.page,
      region: line.region,
      lines: [line],
      level: level ?? 0,
      indented: line.x0 - frame.left > line.size * 0.7,
    };
    blocks.push(current);
  }
  for (const b of blocks) b.kind = classify(b, frames.get(b.region)!, stats);
  return blocks;
}

export { endsSentence };

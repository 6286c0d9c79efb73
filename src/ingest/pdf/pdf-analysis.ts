/**
 * From page layouts to the document's blocks in reading order, with their kinds: document
 * statistics, furniture, the title, headings and the table of contents, blocks per page, front
 * matter and abstract, the bibliography, and paragraphs joined across column and page breaks.
 */
import type { Furniture } from '../../core/index.js';
import { type Block, endsSentence, type Frame, groupBlocks, regionFrames } from './pdf-blocks.js';
import { findFormulas } from './pdf-formulas.js';
import { findFurniture } from './pdf-furniture.js';
import { findHeadings } from './pdf-headings.js';
import { classifyBlock, markFrontMatter } from './pdf-kinds.js';
import type { PageLayout, PdfLine } from './pdf-lines.js';
import { isReferencesHeading, markUnheadedReferences } from './pdf-references.js';
import { type DocStats, documentStats } from './pdf-stats.js';
import { findTables } from './pdf-tables.js';

export interface PdfAnalysis {
  stats: DocStats;
  furniture: Furniture[];
  /** Blocks of every page in reading order, before paragraphs are joined across breaks. */
  pageBlocks: Block[][];
  /** The document's blocks in reading order, paragraphs joined across column and page breaks. */
  blocks: (Block & { synthetic?: boolean })[];
}

/** Page 1 lines at the top in the largest font: the title. */
function titleLines(
  layout: PageLayout | undefined,
  lines: readonly PdfLine[],
  stats: DocStats,
): Set<PdfLine> {
  const out = new Set<PdfLine>();
  if (!layout || lines.length === 0) return out;
  const upper = lines.filter((l) => l.y > layout.page.height * 0.5);
  if (upper.length === 0) return out;
  const max = Math.max(...upper.map((l) => l.size));
  if (max < stats.bodySize * 1.2) return out;
  for (const l of lines) {
    if (l.size >= max - 0.5 && l.y > layout.page.height * 0.5) out.add(l);
    else if (out.size > 0) break;
  }
  return out;
}

/** A line that ends in a lower-case word broken at a hyphen, and a line that goes on in lower case. */
const wordBrokenAcross = (last: PdfLine, first: PdfLine) =>
  /\p{Ll}-$/u.test(last.text.trimEnd()) && /^\p{Ll}/u.test(first.text.trimStart());

/** Other prose kinds: a block of one goes on into the next only where a word is broken. */
const BROKEN_WORD_ONLY = new Set(['front', 'list', 'footnote', 'caption']);

/** Joins the blocks that follow `merged` (same kind, next page at most) while a word runs on into them. */
function joinBrokenWords(blocks: readonly Block[], i: number, merged: Block, used: Set<Block>): void {
  for (let j = i + 1; j < blocks.length; j++) {
    const next = blocks[j]!;
    const last = merged.lines.at(-1)!;
    if (next.kind !== merged.kind || next.page > last.page + 1 || !wordBrokenAcross(last, next.lines[0]!))
      return;
    merged.lines.push(...next.lines);
    used.add(next);
  }
}

/** Blocks a paragraph may jump over when it continues in the next column or page. */
const INTERRUPTIONS = new Set(['float', 'caption', 'footnote', 'table', 'formula', 'code']);

/**
 * Restores reading order across column and page breaks: a body paragraph that stops mid-sentence
 * continues with the next body block that is not indented, jumping over figures, tables, captions
 * and footnotes that the layout put between them (those follow the joined paragraph instead).
 */
export function joinContinuations(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  const used = new Set<Block>();
  for (const [i, block] of blocks.entries()) {
    if (used.has(block)) continue;
    const merged: Block = { ...block, lines: [...block.lines] };
    out.push(merged);
    if (merged.kind === 'reference') {
      joinReferenceContinuation(blocks, i, merged, used);
      continue;
    }
    if (merged.kind !== 'body' && merged.kind !== 'abstract') {
      if (BROKEN_WORD_ONLY.has(merged.kind)) joinBrokenWords(blocks, i, merged, used);
      continue;
    }
    let j = i + 1;
    while (!endsSentence(merged.lines.at(-1)!.text)) {
      while (j < blocks.length && (used.has(blocks[j]!) || INTERRUPTIONS.has(blocks[j]!.kind)) && j - i < 12)
        j++;
      const next = blocks[j];
      if (next?.kind !== merged.kind || next.page > merged.lines.at(-1)!.page + 1) break;
      // A word broken at a hyphen ("dehypenisa-" | "tion of …") goes on whatever the layout says:
      // no paragraph ends inside a word, so an indent or a gap there is not a paragraph break.
      if (!wordBrokenAcross(merged.lines.at(-1)!, next.lines[0]!)) {
        if (next.indented) break;
        const sameRegion =
          next.page === merged.lines.at(-1)!.page && next.region === merged.lines.at(-1)!.region;
        if (sameRegion && j === i + 1) break; // a real paragraph break within a column
      }
      merged.lines.push(...next.lines);
      used.add(next);
      j++;
    }
  }
  return out;
}

/**
 * A bibliography entry broken by a column or page break: the next entry block, in another region,
 * that starts in lower case or with a digit, or is indented (a hanging indent's continuation line).
 */
function joinReferenceContinuation(
  blocks: readonly Block[],
  i: number,
  merged: Block,
  used: Set<Block>,
): void {
  let j = i + 1;
  while (j < blocks.length && INTERRUPTIONS.has(blocks[j]!.kind) && j - i < 6) j++;
  const next = blocks[j];
  const last = merged.lines.at(-1)!;
  if (next?.kind !== 'reference' || (next.page === last.page && next.region === last.region)) return;
  if (next.page > last.page + 1) return;
  if (!/^[\p{Ll}\d]/u.test(next.lines[0]!.text) && !next.indented) return;
  merged.lines.push(...next.lines);
  used.add(next);
}

/**
 * Two table blocks one after the other in a region, less than three line gaps apart, are one table
 * (a header set apart from the body by a rule, whose cells align with the body's only in part).
 */
function mergeTables(blocks: readonly Block[], stats: DocStats): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const prev = out.at(-1);
    const gap = prev ? prev.lines.at(-1)!.y - b.lines[0]!.y : Infinity;
    if (
      prev?.kind === 'table' &&
      b.kind === 'table' &&
      prev.page === b.page &&
      prev.region === b.region &&
      gap > 0 &&
      gap < stats.lineGap * 3
    ) {
      out[out.length - 1] = { ...prev, lines: [...prev.lines, ...b.lines] };
    } else out.push(b);
  }
  return out;
}

export function analysePages(layouts: readonly PageLayout[]): PdfAnalysis {
  const stats = documentStats(layouts);
  const { furniture, isFurniture } = findFurniture(layouts, stats);
  const pageLines = layouts.map((p) => p.lines.filter((l) => !isFurniture(l)));
  const titles = titleLines(layouts[0], pageLines[0] ?? [], stats);
  const { headings, wraps, toc } = findHeadings(pageLines, stats, titles);
  const state = { inReferences: false };
  const frameOf = new Map<Block, Frame>();
  const pageBlocks = pageLines.map((lines) => {
    const frames = regionFrames(lines, stats);
    const formulas = findFormulas(lines, (l) => frames.get(l.region)!, stats.lineGap);
    const tables = findTables(
      lines.filter((l) => !formulas.has(l)),
      stats.lineGap,
    );
    const roles = { titles, headings, wraps, toc, tables, formulas };
    const blocks = groupBlocks(lines, stats, roles, frames, state, isReferencesHeading);
    for (const b of blocks) {
      const frame = frames.get(b.region)!;
      frameOf.set(b, frame);
      b.kind = classifyBlock(b, frame, stats);
    }
    return blocks;
  });
  const all = mergeTables(pageBlocks.flat(), stats);
  markFrontMatter(all, (b) => frameOf.get(b)!, stats.bodySize);
  for (const b of all) {
    if (b.kind !== 'toc') continue;
    for (const l of b.lines) furniture.push({ page: b.page, kind: 'toc', text: l.text });
  }
  const ordered = markUnheadedReferences(joinContinuations(all.filter((b) => b.kind !== 'toc')));
  return { stats, furniture, pageBlocks, blocks: ordered };
}

/**
 * A page's lines (reading order, furniture removed) grouped into blocks: consecutive lines of one
 * region that form one unit (a paragraph, a heading, a caption, a table, a formula …). Kinds are
 * given by `pdf-kinds.ts`; this file only decides where blocks start.
 */
import { CAPTION } from './pdf-headings.js';
import type { PdfLine } from './pdf-lines.js';
import type { DocStats } from './pdf-stats.js';

export type BlockKind =
  | 'title'
  | 'front'
  | 'heading'
  | 'abstract'
  | 'body'
  | 'caption'
  | 'footnote'
  | 'table'
  | 'formula'
  | 'code'
  | 'float'
  | 'reference'
  | 'toc';

/** Consecutive lines of one page and region that form one unit of text. */
export interface Block {
  kind: BlockKind;
  page: number;
  /** The page region (reading-order position) the block is in. */
  region: number;
  lines: PdfLine[];
  /** For headings. */
  level: number;
  /** The first line starts indented from the region's left edge (a new paragraph). */
  indented: boolean;
}

/** The left and right edges of a region's text and its lowest body-size baseline. */
export interface Frame {
  left: number;
  right: number;
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

/** Each region's frame, from its body-size lines (all lines when it has none). */
export function regionFrames(lines: readonly PdfLine[], stats: DocStats): Map<number, Frame> {
  const frames = new Map<number, Frame>();
  for (const region of new Set(lines.map((l) => l.region))) {
    const own = lines.filter((l) => l.region === region);
    const body = own.filter((l) => Math.abs(l.size - stats.bodySize) < 0.6);
    const ref = body.length > 0 ? body : own;
    frames.set(region, {
      left: Math.min(
        roundedMode(
          ref.map((l) => l.x0),
          own[0]!.x0,
        ),
        ...ref.map((l) => l.x0 + 0.5),
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

const numeric = new WeakMap<PdfLine, boolean>();
const NUMBER_TOKEN = /(?<=^| )[-+±]?[\d.,]*\d[\d.,]*%?(?= |$)/g;

/** A row of numbers: three or more tokens, half of them numbers. */
export function isNumericRow(line: PdfLine): boolean {
  let known = numeric.get(line);
  if (known === undefined) {
    const tokens = line.text.split(' ').length;
    const numbers = tokens < 3 ? 0 : (line.text.match(NUMBER_TOKEN) ?? []).length;
    known = tokens >= 3 && numbers / tokens >= 0.5;
    numeric.set(line, known);
  }
  return known;
}

/** A table row: several wide gaps, or mostly numbers. */
export const isTabular = (line: PdfLine) => line.gaps >= 2 || isNumericRow(line);

/** A line that is only a labelled DOI: the identifier eLife and others print under each figure, table and box. */
export const OBJECT_DOI = /^DOI:?\s*(?:https?:\/\/(?:dx\.)?doi\.org\/)?10\.\d{4,9}\/\S+$/i;
export const endsSentence = (text: string) => /[.!?:;]["'”’)\]]*$/.test(text.trim());
const BULLET = /^(?:[•◦▪▸►‣⁃·∙–—-]\s|\(?[a-z\d]{1,2}\)\s|\d{1,2}\.\s+\p{Lu})/u;
const isMono = (l: PdfLine, stats: DocStats) => stats.monoFonts.has(l.font);
/** A word broken at the line end continues on the next line. */
const wordBroken = (prev: PdfLine, line: PdfLine) =>
  /\p{Ll}-$/u.test(prev.text) && /^\p{Ll}/u.test(line.text);

/** Whether a new block starts at `line`, given the previous line of the same page. */
function breaksBefore(prev: PdfLine, line: PdfLine, next: PdfLine | undefined, ctx: BlockContext): boolean {
  const { stats, frame } = ctx;
  if (prev.region !== line.region || line.y >= prev.y) return true;
  const expected = stats.lineGap * (Math.max(line.size, prev.size) / stats.bodySize);
  if (prev.y - line.y > expected * 1.45) return true;
  if (wordBroken(prev, line) && Math.abs(line.size - prev.size) <= 0.8) return false;
  // A size change starts a block, but not where a sentence runs on into a line that is mostly inline
  // code set smaller than the text ("… under uncertainty with PEST++OPT" | "and PEST++MOU.").
  const inlineCode = isMono(line, stats) !== isMono(prev, stats) && !endsSentence(prev.text);
  if (Math.abs(line.size - prev.size) > 0.8 && !inlineCode) return true;
  // A caption starts a block, unless a label broken at a dash goes on ("see Appendix 2—" | "Table 1.").
  if (CAPTION.test(line.text) && !/[—–-]$/.test(prev.text)) return true;
  // (In the bibliography a DOI on its own line ends an entry instead.)
  if (!ctx.inReferences && (OBJECT_DOI.test(line.text) || OBJECT_DOI.test(prev.text))) return true;
  // (Wide gaps alone do not break: a justified line with few words has them; tables are found apart.)
  if (isNumericRow(prev) !== isNumericRow(line)) return true;
  // Code set apart from the text is a block; a line of inline code inside a sentence is not.
  if (isMono(prev, stats) !== isMono(line, stats) && prev.y - line.y > expected * 1.2) return true;
  const indent = line.x0 - frame.left;
  const prevIndent = prev.x0 - frame.left;
  if (ctx.inReferences) {
    if (/^\[\d{1,3}\]/.test(line.text)) return true;
    // An entry starts with a name or a label, never in lower case or with a bare number.
    if (/^(?:\p{Ll}|\d+[,;:)]|\d+$)/u.test(line.text)) return false;
    return indent < line.size * 0.5 && (prevIndent > line.size * 0.5 || endsSentence(prev.text));
  }
  const listed =
    endsSentence(prev.text) || BULLET.test(prev.text) || prevIndent > 0 || indent > line.size * 0.5;
  if (BULLET.test(line.text) && listed) return true;
  const isIndented = indent > line.size * 0.7 && indent < line.size * 4;
  const nextFlush = !next || next.region !== line.region || Math.abs(next.x0 - frame.left) < line.size * 0.5;
  if (isIndented && nextFlush && endsSentence(prev.text)) return true;
  const short = prev.x1 < frame.right - line.size * 2.5;
  return short && endsSentence(prev.text) && /^[\p{Lu}\d]/u.test(line.text);
}

interface BlockContext {
  stats: DocStats;
  frame: Frame;
  inReferences: boolean;
}

/** What the document-level passes decided about lines before grouping. */
export interface LineRoles {
  titles: ReadonlySet<PdfLine>;
  headings: ReadonlyMap<PdfLine, number>;
  /** Lines that continue the heading above them (a wrapped heading). */
  wraps: ReadonlySet<PdfLine>;
  toc: ReadonlySet<PdfLine>;
  /** Table lines with the number of their table. */
  tables: ReadonlyMap<PdfLine, number>;
  /** Display formula lines with the number of their formula. */
  formulas: ReadonlyMap<PdfLine, number>;
}

/**
 * Groups a page's lines into blocks. Titles, headings (with their wrapped lines) and table-of-
 * contents entries are blocks of their own; other lines are grouped by `breaksBefore`.
 * `state.inReferences` carries the References section across pages.
 */
export function groupBlocks(
  lines: readonly PdfLine[],
  stats: DocStats,
  roles: LineRoles,
  frames: ReadonlyMap<number, Frame>,
  state: { inReferences: boolean },
  isReferencesHeading: (text: string) => boolean,
): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const [i, line] of lines.entries()) {
    const frame = frames.get(line.region)!;
    const prev = i > 0 ? lines[i - 1] : undefined;
    const level = roles.headings.get(line);
    const kind: BlockKind = roles.titles.has(line)
      ? 'title'
      : level !== undefined
        ? 'heading'
        : roles.toc.has(line)
          ? 'toc'
          : roles.formulas.has(line)
            ? 'formula'
            : roles.tables.has(line)
              ? 'table'
              : 'body';
    let joins: boolean;
    if (!current || !prev) joins = false;
    else if (current.kind === 'table' || kind === 'table')
      joins = kind === current.kind && roles.tables.get(prev) === roles.tables.get(line);
    else if (current.kind === 'formula' || kind === 'formula')
      joins = kind === current.kind && roles.formulas.get(prev) === roles.formulas.get(line);
    else if (current.kind === 'heading') joins = roles.wraps.has(line);
    else if (current.kind === 'title' || current.kind === 'toc') joins = kind === current.kind;
    else if (kind !== 'body') joins = false;
    else joins = !breaksBefore(prev, line, lines[i + 1], { stats, frame, inReferences: state.inReferences });
    if (current && joins) {
      current.lines.push(line);
      continue;
    }
    if (kind === 'heading') state.inReferences = isReferencesHeading(line.text);
    current = {
      kind: kind === 'body' && state.inReferences ? 'reference' : kind,
      page: line.page,
      region: line.region,
      lines: [line],
      level: level ?? 0,
      indented: line.x0 - frame.left > line.size * 0.7,
    };
    blocks.push(current);
  }
  return blocks;
}

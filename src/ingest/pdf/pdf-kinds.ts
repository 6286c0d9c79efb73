/**
 * Block kinds (blocks in the References section are already `reference`). Per block, in order:
 * starts "Figure 3:", "Table 2." … → `caption`; smaller than body text, below the region's body
 * text and starting with a marker → `footnote`; mostly in a fixed-pitch font → `code`; mostly table
 * rows → `table`; display mathematics → `formula`; otherwise smaller than body text → `float` (text
 * inside a figure); else `body`. Then, over the document: page-1 blocks before the first heading other than the title
 * are `front` matter (authors, affiliations) unless they read as prose, which is the abstract of a
 * paper that prints no "Abstract" heading; text under an "Abstract" heading is `abstract`.
 */
import { type Block, type Frame, isTabular, OBJECT_DOI } from './pdf-blocks.js';
import { CAPTION } from './pdf-headings.js';
import type { PdfLine } from './pdf-lines.js';
import type { DocStats } from './pdf-stats.js';

const MATH_CHAR = /[=+−×÷∑∏∫∂∇√∞≤≥≈≠∈∉⊂⊆∪∩∀∃→←↔⇒⇔±∓·∘⊗⊕αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ]/gu;
const EQUATION_NUMBER = /\(\s*(?:\d{1,3}[a-z]?|[A-Z]\.\d{1,3})\s*\)$/;

/** Share of a block's characters that are set in one of `fonts`. */
const charsIn = (lines: readonly PdfLine[], test: (l: PdfLine) => boolean) => {
  let n = 0;
  let all = 0;
  for (const l of lines) {
    all += l.text.length;
    if (test(l)) n += l.text.length;
  }
  return all === 0 ? 0 : n / all;
};

/**
 * Display mathematics: every line is short of prose (few words of 3+ letters), and the block has
 * an equation number or a high share of mathematical symbols; or the lines sit centred, well
 * inside the frame, and hold symbols.
 */
export function isFormula(lines: readonly PdfLine[], frame: Frame): boolean {
  let symbols = 0;
  let chars = 0;
  let prose = 0;
  let numbered = false;
  let centred = true;
  for (const l of lines) {
    const t = l.text.replace(/\s+/g, '');
    chars += t.length;
    symbols += (l.text.match(MATH_CHAR) ?? []).length;
    prose += (l.text.match(/\p{L}{3,}/gu) ?? []).filter(
      (w) =>
        !/^(?:where|and|for|with|if|otherwise|log|exp|max|min|sin|cos|tan|lim|sup|inf|arg|det|tr)$/i.test(w),
    ).length;
    if (EQUATION_NUMBER.test(l.text.trim())) numbered = true;
    const width = frame.right - frame.left;
    if (
      !(l.x0 - frame.left > width * 0.08 && frame.right - l.x1 > width * 0.08) &&
      !EQUATION_NUMBER.test(l.text.trim())
    )
      centred = false;
  }
  if (chars === 0) return false;
  if (prose > 3 * lines.length) return false;
  const dense = symbols / chars;
  return (numbered && (dense > 0.02 || prose <= lines.length)) || dense > 0.12 || (centred && dense > 0.04);
}

/** The kind of a text block on its own (see the module comment). */
export function classifyBlock(block: Block, frame: Frame, stats: DocStats): Block['kind'] {
  if (block.kind !== 'body') return block.kind;
  const first = block.lines[0]!;
  if (CAPTION.test(first.text)) return 'caption';
  // An object's own DOI line under a figure, table, box or video ("DOI: https://doi.org/…/eLife.00666.004"),
  // set apart from the text: it labels the object, it is no prose.
  if (block.lines.length === 1 && OBJECT_DOI.test(first.text)) return 'float';
  const small = first.size < stats.bodySize * 0.92;
  const belowBody = block.lines.every((l) => l.y < frame.lowestBody - 1);
  const marked =
    first.marker !== '' || /^(?:\d{1,2}|[*∗†‡§¶]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)(?:\s|\p{Lu}|$)/u.test(first.text);
  // Before code: footnotes often hold URLs set in a fixed-pitch font.
  if (small && belowBody && marked) return 'footnote';
  if (charsIn(block.lines, (l) => stats.monoFonts.has(l.font)) >= 0.6) return 'code';
  const tabular = block.lines.filter(isTabular).length;
  if (tabular > 0 && tabular >= block.lines.length / 2) return 'table';
  if (isFormula(block.lines, frame)) return 'formula';
  return small ? 'float' : 'body';
}

/** Reads like prose: lines most of which fill the frame, ending a sentence (or four and more lines). */
function isProse(block: Block, frame: Frame): boolean {
  if (block.lines.length < 2) return false;
  const full = block.lines.filter((l) => l.x1 - l.x0 > (frame.right - frame.left) * 0.7).length;
  const ends = /[.!?]["')\]]?$/.test(block.lines.at(-1)!.text.trim());
  return full >= block.lines.length * 0.6 && (ends || block.lines.length >= 4);
}

const AFFILIATION =
  /\b(?:universit|institut|department|laborator|school of|college|centre|center|faculty|hospital)|@/giu;

/** Affiliations: two or more institution words or e-mail addresses. */
const isAffiliation = (b: Block) =>
  (
    b.lines
      .map((l) => l.text)
      .join(' ')
      .match(AFFILIATION) ?? []
  ).length >= 2;

/** A list of names: three or more commas, and most words capitalised ("and" aside). */
function isNameList(b: Block): boolean {
  const text = b.lines.map((l) => l.text).join(' ');
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w) && !/^(?:and|&)$/.test(w));
  const capitalised = words.filter((w) => /^\P{L}*\p{Lu}/u.test(w)).length;
  return (text.match(/,/g) ?? []).length >= 3 && capitalised >= words.length * 0.8;
}

const ABSTRACT_START = /^abstract\b[.:—–-]?/i;
const FRONT_LABEL = /^(?:keywords?|key words|index terms|pacs|msc|jel|ccs concepts)\b/i;
/** Labelled notes of a first page in small type ("Citation: …", "Received …", "Copyright: …"). */
const FIRST_PAGE_NOTE =
  /^(?:citation|editor|academic editor|received|accepted|published|copyright|©|funding|competing interests|data availability|correspondence|\*\s*e-?mail|e-?mail)\b/i;

/**
 * Front matter and abstract over the document's blocks (reading order): see the module comment.
 * Before the first heading on page 1, a block that starts "Abstract" and the prose blocks after it
 * are the abstract, labelled lines ("Keywords: …") and other non-prose blocks are front matter.
 */
export function markFrontMatter(blocks: Block[], frameOf: (b: Block) => Frame, bodySize: number): void {
  const firstHeading = blocks.findIndex((b) => b.kind === 'heading');
  const end = firstHeading < 0 ? blocks.length : firstHeading;
  let abstractSeen = false;
  for (let i = 0; i < end; i++) {
    const b = blocks[i]!;
    if (b.page !== 1 || b.kind === 'title' || b.kind === 'toc') continue;
    if (b.kind === 'caption' || b.kind === 'footnote' || b.kind === 'table') continue;
    const text = b.lines[0]!.text;
    if (ABSTRACT_START.test(text)) abstractSeen = true;
    const prose =
      ABSTRACT_START.test(text) || (abstractSeen && b.lines.length >= 2) || isProse(b, frameOf(b));
    b.kind = prose && !FRONT_LABEL.test(text) && !isAffiliation(b) && !isNameList(b) ? 'abstract' : 'front';
  }
  for (const b of blocks) {
    const small = b.lines[0]!.size < bodySize * 0.95;
    if (b.page === 1 && small && b.kind !== 'title' && FIRST_PAGE_NOTE.test(b.lines[0]!.text))
      b.kind = 'front';
  }
  let inAbstract = false;
  for (const b of blocks) {
    if (b.kind === 'heading') {
      inAbstract = /^abstract[.:]?$/i.test(
        b.lines
          .map((l) => l.text)
          .join(' ')
          .trim(),
      );
      continue;
    }
    if (inAbstract && (b.kind === 'body' || b.kind === 'float')) b.kind = 'abstract';
  }
}

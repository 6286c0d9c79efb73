/**
 * Section headings, decided over the whole document.
 *
 * A line is a *candidate* when it is short, set apart from body text by its type (larger, or in a
 * font the body text does not use; capitals count for small numbered headings such as REVTeX's
 * "II. METHODS") and is not a caption, an author line (superscript markers, e-mail, lists of names)
 * or a table-of-contents entry (a line ending in a page number among others like it). A candidate
 * becomes a heading when it is numbered (`2`, `2.1`, `IV.`, `A.1`, `Appendix B`, `Appendix. Title`), is one of the
 * usual section names, or shares its type with a numbered heading; or, in a paper without
 * numbered headings, when its type is at least 12% larger than the body text or used only for
 * short lines that stand apart from the text around them. The level is the depth of the numbering,
 * else the level of the numbered headings set in the same type, else the rank of its type size
 * among the heading types. A heading that wraps continues on the next line in the same type.
 */
import type { PdfLine } from './pdf-lines.js';
import { type DocStats, usesBodyFont } from './pdf-stats.js';

/** Section names papers use without numbers; matched case-insensitively on the whole line. */
const KNOWN =
  /^(abstract|summary|introduction|related work|background|preliminaries|methods?|materials and methods|methodology|approach|experiments?|experimental (setup|results)|evaluation|results?( and discussion)?|analysis|discussion|conclusions?( and future work)?|future work|limitations|broader impact|ethics statement|ethical considerations|acknowledge?ments?|references|bibliography|literature cited|works cited|appendix|appendices|supplementary material|statement of need)$/i;

const ARABIC = /^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(\S.*)$/u;
const ROMAN = /^((?:X{0,2})(?:IX|IV|V?I{0,3}))\.\s+(\S.*)$/u;
const LETTERED = /^([A-H](?:\.\d{1,2}){0,3})[.:]?\s+(\p{Lu}.*)$/u;
const APPENDIX_NAMED = /^(?:appendix|annex)\s+([A-Z\d]{1,2})\b[.:]?\s*(.*)$/iu;
/** An appendix without a letter, titled after a stop: "Appendix. Model specification", "Appendix: Proofs". */
const APPENDIX_TITLED = /^(?:[Aa]ppendix|APPENDIX|[Aa]nnex|ANNEX)\s*[.:—–]\s*\p{Lu}/u;

/**
 * A caption's label: "Figure 3:", "Fig. 3.", "Table 2:", "Algorithm 1:", "Box 1.", "Video 1.", and
 * labels of an object that belongs to another ("Figure 3—figure supplement 1.", "Appendix 2—video
 * 1.", "Table 1—source data 1.", as eLife prints its figure supplements, videos and source data).
 */
export const CAPTION =
  /^(?:(?:Figure|Table|Box|Appendix|Video)\s*[A-Z]?\d+\s*[—–]\s*)?(?:Figure|Fig\.|Table|Tab\.|Algorithm|Listing|Box|Video|Movie|(?<=[—–]\s*)(?:[Ff]igure supplement|[Vv]ideo|[Ss]ource (?:data|code)|[Tt]able|[Ff]igure))\s*[A-Z]?\d+(?:\.\d+)?\s*[:.|]/;
export const REFERENCES_HEADING =
  /^(?:[\dIVX]+\.?\s*)?(references?|bibliography|literature cited|works cited|references and notes)$/i;

export type Numbering = { kind: 'arabic' | 'roman' | 'letter' | 'appendix'; depth: number; label: string };

/** The numbering a heading text starts with, if any. */
export function numberingOf(text: string): Numbering | null {
  let m = ARABIC.exec(text);
  if (m && Number(m[1]!.split('.')[0]) <= 30 && /\p{L}/u.test(m[2]!))
    return { kind: 'arabic', depth: m[1]!.split('.').length, label: m[1]! };
  m = ROMAN.exec(text);
  if (m?.[1]) return { kind: 'roman', depth: 1, label: m[1] };
  m = APPENDIX_NAMED.exec(text);
  if (m) return { kind: 'appendix', depth: 1, label: m[1]! };
  if (APPENDIX_TITLED.test(text)) return { kind: 'appendix', depth: 1, label: '' };
  m = LETTERED.exec(text);
  if (m) return { kind: 'letter', depth: m[1]!.split('.').length, label: m[1]! };
  return null;
}

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
const styleOf = (l: PdfLine) => `${l.font}|${Math.round(l.size * 2) / 2}`;
const AUTHORISH =
  /[¹²³⁴⁵⁶⁷⁸⁹⁰*∗†‡§¶]|@|\b(?:university|universit[éy]|institute|department|school of|laboratory|faculty)\b/iu;
const RUN_IN = new RegExp(`^(?:${KNOWN.source.slice(2, -2)})[.:]\\s+\\S`, 'i');
/** Labelled front-matter lines ("Keywords: …", "Received 3 May 2020"). */
const FRONT_LABEL =
  /^(?:keywords?|key words|index terms|received|accepted|published|revised|arxiv e-?print|doi|pacs|msc|jel|citation|editor|copyright|correspondence|e-?mail)\b|^(?:table of )?contents$/i;
/** A table-of-contents entry: a title followed by a page number (with or without dot leaders). */
const TOC_TAIL = /(?:\.{2,}|\s)\s*\d{1,4}$/u;
const isTocEntry = (text: string) => /\d$/.test(text) && /\p{L}/u.test(text) && TOC_TAIL.test(text);

export interface HeadingLine {
  line: PdfLine;
  level: number;
}

interface Candidate {
  line: PdfLine;
  numbering: Numbering | null;
  known: boolean;
  style: string;
  spaced: boolean;
}

/** Whether a line looks like a heading on its own (see the module comment). */
function candidate(line: PdfLine, prev: PdfLine | undefined, stats: DocStats): Candidate | null {
  const text = line.text.trim();
  const otherFace = !usesBodyFont(line, stats) && !stats.monoFonts.has(line.font);
  // Most lines are body text: in the body font, not larger, not in capitals; they stop here.
  if (!otherFace && line.size < stats.bodySize * 1.12 && text !== text.toUpperCase()) return null;
  if (text.length < 2 || text.length > 150 || !/\p{L}{2}/u.test(text) || words(text) > 16) return null;
  if (CAPTION.test(text) || /[,;]$/.test(text) || line.gaps >= 2) return null;
  const numbering = numberingOf(text);
  const known = KNOWN.test(text.replace(/[.:]$/, '').replace(/^[\dIVX.]+\s+/, ''));
  if (AUTHORISH.test(text) || FRONT_LABEL.test(text)) return null;
  const caps = numbering !== null && text === text.toUpperCase() && /\p{Lu}{3}/u.test(text);
  const larger = line.size >= stats.bodySize * 1.12;
  const small = line.size < stats.bodySize * (known ? 0.85 : 0.95);
  if (small && !(caps && line.size >= stats.bodySize * 0.75)) return null;
  // A usual section name followed by text on the same line, in text size, is a run-in heading.
  if (!larger && !numbering && RUN_IN.test(text)) return null;
  if (!larger && !otherFace && !caps) return null;
  if (/\.$/.test(text) && (words(text) > 8 || (!numbering && !known))) return null;
  // A sentence goes on after the first words: a run-in heading ("Abstract. In this paper …").
  if (!numbering && /\S\s+\S.*[.!?]\s+\p{L}/u.test(text)) return null;
  const gap = prev && prev.region === line.region && prev.page === line.page ? prev.y - line.y : Infinity;
  const spaced = gap > stats.lineGap * 1.3 * Math.max(1, line.size / stats.bodySize);
  return { line, numbering, known, style: styleOf(line), spaced };
}

/** Lines of a run of three or more table-of-contents entries. */
function tocLines(lines: readonly PdfLine[]): Set<PdfLine> {
  const out = new Set<PdfLine>();
  let run: PdfLine[] = [];
  const flush = () => {
    if (run.length >= 3) for (const l of run) out.add(l);
    run = [];
  };
  for (const [i, l] of lines.entries()) {
    if (isTocEntry(l.text) && (numberingOf(l.text) || /\.{3,}/.test(l.text))) {
      const before = lines[i - 1];
      if (run.length === 0 && before && /^(?:table of )?contents$/i.test(before.text.trim()))
        run.push(before);
      run.push(l);
    } else if (run.length > 0 && l.region === run.at(-1)!.region && words(l.text) <= 12 && isTocEntry(l.text))
      run.push(l);
    else flush();
  }
  flush();
  return out;
}

/**
 * The document's heading lines with their levels (see the module comment); `exclude` holds lines
 * already taken (the title, furniture). Also returns the lines that continue a wrapped heading and
 * the table-of-contents lines.
 */
export function findHeadings(
  pages: readonly (readonly PdfLine[])[],
  stats: DocStats,
  exclude: ReadonlySet<PdfLine>,
): { headings: Map<PdfLine, number>; wraps: Set<PdfLine>; toc: Set<PdfLine> } {
  const all = pages.flat();
  const toc = tocLines(all);
  const candidates: Candidate[] = [];
  const index = new Map<PdfLine, number>();
  for (const [i, l] of all.entries()) index.set(l, i);
  for (const lines of pages) {
    for (const [i, line] of lines.entries()) {
      if (exclude.has(line) || toc.has(line)) continue;
      const c = candidate(line, lines[i - 1], stats);
      if (c) candidates.push(c);
    }
  }
  const candidateLines = new Set(candidates.map((c) => c.line));
  const isText = (l: PdfLine | undefined) =>
    l !== undefined &&
    Math.abs(l.size - stats.bodySize) < 0.6 &&
    usesBodyFont(l, stats) &&
    words(l.text) >= 3;
  const isProse = (l: PdfLine) =>
    l.size >= stats.bodySize * 0.9 && words(l.text) >= 3 && !candidateLines.has(l);
  // Page 1 before its first two lines of prose is front matter: title, authors, affiliations.
  let frontEnd = all.findIndex(
    (l, i) => l.page > 1 || (isText(l) && words(l.text) >= 6 && isText(all[i + 1])),
  );
  if (frontEnd < 0) frontEnd = all.length;
  /** Text follows the heading: the first line after it that is no heading or wrapped heading line. */
  const followedByText = (line: PdfLine) => {
    const i = index.get(line)!;
    for (let k = i + 1; k < Math.min(all.length, i + 5); k++) {
      const next = all[k]!;
      if (candidateLines.has(next) || continuesHeading(all[k - 1]!, next, stats)) continue;
      return isProse(next);
    }
    return false;
  };
  // How each type is used: lines that are candidates, and lines that are not (long text).
  const styleUse = new Map<string, { candidates: number; other: number }>();
  for (const l of all) {
    const s = styleUse.get(styleOf(l)) ?? { candidates: 0, other: 0 };
    styleUse.set(styleOf(l), s);
  }
  const isCandidate = new Set(candidates.map((c) => c.line));
  for (const l of all) {
    const s = styleUse.get(styleOf(l))!;
    if (isCandidate.has(l)) s.candidates++;
    else if (!exclude.has(l)) s.other++;
  }
  const numberedStyles = new Map<string, number>();
  for (const c of candidates) {
    if (c.numbering && c.numbering.kind !== 'letter' && c.spaced)
      numberedStyles.set(c.style, c.numbering.depth);
  }
  const hasRoman = candidates.some((c) => c.numbering?.kind === 'roman');
  const accepted = candidates.filter((c) => {
    if (c.numbering) return c.numbering.kind !== 'letter' || c.spaced || numberedStyles.has(c.style);
    if (c.known) return true;
    if (!followedByText(c.line)) return false;
    // In the front matter only a clearly larger type followed at once by prose is a heading.
    const i = index.get(c.line)!;
    if (i < frontEnd && !(c.line.size >= stats.bodySize * 1.12 && isText(all[i + 1]))) return false;
    if (numberedStyles.has(c.style)) return c.spaced;
    const use = styleUse.get(c.style)!;
    const dedicated = use.other <= use.candidates;
    return c.spaced && (dedicated || c.line.size >= stats.bodySize * 1.12);
  });
  // Unnumbered heading types ranked by size: the largest is level 1 unless numbered levels say otherwise.
  const unnumberedSizes = [
    ...new Set(accepted.filter((c) => !c.numbering && !numberedStyles.has(c.style)).map((c) => c.line.size)),
  ].sort((a, b) => b - a);
  const headings = new Map<PdfLine, number>();
  const wraps = new Set<PdfLine>();
  for (const c of accepted) {
    if (wraps.has(c.line)) continue;
    const lines = wrappedLines(c.line, all, index, stats);
    if (!c.known && isRunIn(lines, all[index.get(lines.at(-1)!)! + 1], c.numbering !== null)) continue;
    let level: number;
    if (c.numbering?.kind === 'letter') level = hasRoman ? c.numbering.depth + 1 : c.numbering.depth;
    else if (c.numbering) level = c.numbering.depth;
    else if (numberedStyles.has(c.style)) level = numberedStyles.get(c.style)!;
    else if (c.known) level = 1;
    else level = 1 + Math.max(0, unnumberedSizes.indexOf(c.line.size));
    headings.set(c.line, level);
    for (const l of lines.slice(1)) wraps.add(l);
  }
  return { headings, wraps, toc };
}

/** A heading line and the lines it wraps onto (at most three more). */
function wrappedLines(
  line: PdfLine,
  all: readonly PdfLine[],
  index: ReadonlyMap<PdfLine, number>,
  stats: DocStats,
): PdfLine[] {
  const lines = [line];
  for (let i = index.get(line)!; i + 1 < all.length && lines.length < 4; i++) {
    if (!continuesHeading(all[i]!, all[i + 1]!, stats)) break;
    lines.push(all[i + 1]!);
  }
  return lines;
}

/**
 * A bold first sentence of a paragraph, not a heading: longer than a heading, a sentence ends
 * inside it, or it fills its line and the text after it goes on in lower case ("Long-form
 * summaries are rarely evaluated by | human …").
 */
function isRunIn(lines: readonly PdfLine[], after: PdfLine | undefined, numbered: boolean): boolean {
  const text = lines.map((l) => l.text).join(' ');
  if (words(text) > 20) return true;
  if (!numbered && /\S\s+\S.*[.!?]\s+\p{L}/u.test(text)) return true;
  const last = lines.at(-1)!;
  return (
    after !== undefined &&
    after.region === last.region &&
    after.page === last.page &&
    /^\p{Ll}/u.test(after.text) &&
    !/[:.]$/.test(text.trim()) &&
    last.x1 >= after.x1 - last.size
  );
}

/** Whether a heading line is continued by `next` (a wrapped heading in the same type). */
export function continuesHeading(prev: PdfLine, next: PdfLine, stats: DocStats): boolean {
  return (
    next.region === prev.region &&
    next.page === prev.page &&
    styleOf(next) === styleOf(prev) &&
    prev.y - next.y < stats.lineGap * 1.6 * Math.max(1, next.size / stats.bodySize) &&
    numberingOf(next.text) === null &&
    !/[.:]$/.test(prev.text.trim()) &&
    words(next.text) <= 12
  );
}

export { KNOWN as KNOWN_SECTION_NAMES };

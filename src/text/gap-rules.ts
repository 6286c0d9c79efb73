/**
 * Which insertions the strict mode's `gapped` rule tolerates between two consecutive quote tokens.
 * A gap is the run of paper tokens `[from, to)` between the paper tokens matched to two consecutive
 * quote tokens. It is accepted when it is non-empty, has at most `MAX_GAP_TOKENS` tokens and is
 *
 * - a run of PDF *furniture lines*: in the original text the gap starts after a line break and is
 *   followed by a line break, spans at most 3 lines and 200 characters, and contains a digit (a page
 *   number, a year in a running header like "Proceedings of ACL 2018 123") or has at most 6 tokens
 *   (a short running header such as "Smith et al."); or
 * - a sequence of *markers*, each one of:
 *   - a footnote marker: a superscript digit run (`¹`, kept apart by the tokenizer) or one of
 *     `* † ‡ § ¶ # ∗ ⋆ ⁎`;
 *   - a QASPER placeholder (`BIBREF12`, `TABREF3`, `FIGREF0`, `INLINEFORM1`, `DISPLAYFORM0`);
 *   - a bracketed citation `[ … ]` whose inside is numbers, number ranges and separators
 *     (`[12]`, `[3, 5-7]`, `[12a]`), Markdown footnote references (`[^1]`, `[^1, ^2]`: the citation
 *     markers of citegeist's answer contract), or an author–year list containing a year;
 *   - a LaTeX superscript marker `$^{ … }$` whose inside is numbers and separators (`$^{2}$`,
 *     `$^{3,4}$`: footnote and reference markers in text converted from PDF to Markdown);
 *   - a parenthesised citation `( … )` whose inside contains a year (`(Smith et al., 2019)`,
 *     `(Lee and Kim, 2020a; Wu, 2021)`) or is numbers and separators only (`(12)`);
 *   - a `,` or `;` between two of the above (`BIBREF1 , BIBREF2`).
 *
 * - tokens inside spans the caller marked skippable (`preparePaper(text, { skippable })`: the
 *   footnote and citation markers an ingester recorded in `Document.markers`).
 *
 * Real words are never accepted as an insertion except inside those shapes and spans, so a quote that drops a
 * word of the paper ("is accurate" for "is not accurate") does not match.
 */
import type { MatchTokens } from './match-tokens.js';
import { TokenKind } from './match-tokens.js';
import { type NormalizedText, toOriginalSpan } from './normalize.js';

/** Most tokens one gap may hold. */
export const MAX_GAP_TOKENS = 30;

const FOOTNOTE_SYMBOLS = new Set([
  '*',
  '\u2020',
  '\u2021',
  '\u00a7',
  '\u00b6',
  '#',
  '\u2217',
  '\u22c6',
  '\u204e',
]);
const PLACEHOLDER = /^(?:bibref|tabref|figref|inlineform|displayform)\d+$/;
const YEAR = /^(?:1[5-9]|20)\d\d[a-z]?$/;
const NUMBERISH = /^\d+[a-z]?$/;
const NUMERIC_SEPARATORS = new Set([',', ';', '-', '^']);
const AUTHOR_YEAR_SEPARATORS = new Set([',', ';', '.', '&', '-', "'"]);

/** The context a gap is judged in: the paper's tokens and its normalised text with offsets. */
export interface GapContext {
  readonly tokens: MatchTokens;
  readonly normalized: NormalizedText;
  /** `breakAfter[i]` = 1 when a line break follows token i in the original text. */
  readonly breakAfter: Uint8Array;
  /** `skippable[i]` = 1 when token i is inside a recorded marker (always skippable). */
  readonly skippable?: Uint8Array;
}

function allSkippable(ctx: GapContext, from: number, to: number): boolean {
  if (!ctx.skippable) return false;
  for (let i = from; i < to; i++) if (ctx.skippable[i] !== 1) return false;
  return true;
}

function isFootnoteMarker(tokens: MatchTokens, i: number): boolean {
  const kind = tokens.kind[i];
  const text = tokens.text[i]!;
  if (kind === TokenKind.Sup) return true;
  if (kind === TokenKind.Symbol) return FOOTNOTE_SYMBOLS.has(text);
  return PLACEHOLDER.test(text);
}

/** Is the inside of a bracket pair `[from, to)` a citation? */
function isCitationInside(tokens: MatchTokens, from: number, to: number): boolean {
  if (to <= from) return false;
  let numeric = true;
  let hasNumber = false;
  let hasYear = false;
  let authorYear = true;
  for (let i = from; i < to; i++) {
    const text = tokens.text[i]!;
    const kind = tokens.kind[i];
    if (kind === TokenKind.Symbol) {
      if (!NUMERIC_SEPARATORS.has(text)) numeric = false;
      if (!AUTHOR_YEAR_SEPARATORS.has(text)) authorYear = false;
      continue;
    }
    if (NUMBERISH.test(text)) hasNumber = true;
    else numeric = false;
    if (YEAR.test(text)) hasYear = true;
  }
  return (numeric && hasNumber) || (authorYear && hasYear);
}

/** Length of the bracketed citation starting at `i` (ending before `limit`), or 0. */
function citationLength(tokens: MatchTokens, i: number, limit: number): number {
  const open = tokens.text[i];
  const close = open === '[' ? ']' : open === '(' ? ')' : undefined;
  if (close === undefined || tokens.kind[i] !== TokenKind.Symbol) return 0;
  for (let j = i + 1; j < limit; j++) {
    const t = tokens.text[j];
    if (t === close) return isCitationInside(tokens, i + 1, j) ? j - i + 1 : 0;
    if (t === '[' || t === '(') return 0;
  }
  return 0;
}

/** Length of the LaTeX superscript marker `$^{…}$` starting at `i` (ending before `limit`), or 0. */
function latexMarkerLength(tokens: MatchTokens, i: number, limit: number): number {
  const t = tokens.text;
  if (t[i] !== '$' || t[i + 1] !== '^' || t[i + 2] !== '{' || tokens.kind[i] !== TokenKind.Symbol) return 0;
  for (let j = i + 3; j + 1 < limit; j++) {
    if (t[j] === '}') return t[j + 1] === '$' && isCitationInside(tokens, i + 3, j) ? j - i + 2 : 0;
  }
  return 0;
}

function isMarkerSequence(tokens: MatchTokens, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    if (isFootnoteMarker(tokens, i)) {
      i++;
      continue;
    }
    // A separator between two markers ("BIBREF1 , BIBREF2").
    const t = tokens.text[i];
    if ((t === ',' || t === ';') && i > from && i + 1 < to && tokens.kind[i] === TokenKind.Symbol) {
      i++;
      continue;
    }
    const n = citationLength(tokens, i, to) || latexMarkerLength(tokens, i, to);
    if (n === 0) return false;
    i += n;
  }
  return true;
}

function isFurniture(ctx: GapContext, from: number, to: number): boolean {
  if (ctx.breakAfter[from - 1] !== 1 || ctx.breakAfter[to - 1] !== 1) return false;
  const { tokens, normalized } = ctx;
  const { original } = normalized;
  if (to - from > 6 && !tokens.text.slice(from, to).some((t) => /\d/.test(t))) return false;
  const before = toOriginalSpan(normalized, tokens.start[from - 1]!, tokens.end[from - 1]!).end;
  const gap = toOriginalSpan(normalized, tokens.start[from]!, tokens.end[to - 1]!);
  const after = toOriginalSpan(normalized, tokens.start[to]!, tokens.end[to]!).start;
  if (gap.end - gap.start > 200) return false;
  if (!original.slice(before, gap.start).includes('\n')) return false;
  if (!original.slice(gap.end, after).includes('\n')) return false;
  let lineBreaks = 0;
  for (let i = gap.start; i < gap.end; i++) if (original.charCodeAt(i) === 10) lineBreaks++;
  return lineBreaks <= 2;
}

/**
 * Whether any acceptable gap can start at paper token `from` (after matched token `from - 1`): it
 * must start a line, or start with a footnote marker, an opening bracket or a `$`. Lets the search skip
 * scanning ahead after an ordinary word.
 */
export function canStartGap(ctx: GapContext, from: number): boolean {
  if (from >= ctx.tokens.length) return false;
  if (ctx.breakAfter[from - 1] === 1 || isFootnoteMarker(ctx.tokens, from)) return true;
  if (ctx.skippable?.[from] === 1) return true;
  const t = ctx.tokens.text[from];
  return (t === '[' || t === '(' || t === '$') && ctx.tokens.kind[from] === TokenKind.Symbol;
}

/**
 * True when paper tokens `[from, to)` may be skipped between two matched tokens (`from - 1` and
 * `to` are the matched ones, so `1 <= from < to < tokens.length`).
 */
export function isAcceptableGap(ctx: GapContext, from: number, to: number): boolean {
  if (to <= from || to - from > MAX_GAP_TOKENS) return false;
  return allSkippable(ctx, from, to) || isMarkerSequence(ctx.tokens, from, to) || isFurniture(ctx, from, to);
}

/**
 * PDF-aware normalisation with an offset map back to the original text (METHODS §1.2, rules 1–4).
 *
 * Rules, applied per code point of the original text:
 * 1. Unicode NFKD (ligatures such as U+FB01 become "fi"; superscript digits become digits).
 *    Combining marks produced by NFKD are KEPT (é becomes "e" + U+0301), as the spec says NFKD only;
 *    quote and paper go through the same function, so they stay comparable. Decomposition is done
 *    per code point; canonical reordering of several stacked combining marks is not applied (it only
 *    matters for marks typed in non-canonical order, and is the same for quote and paper).
 * 2. Fold ‘ ’ ‚ ‛ → `'`; “ ” „ ‟ → `"`; en dash, em dash, minus sign → `-`; no-break space → space.
 * 3. Lowercase (per character); collapse every whitespace run to one space; trim both ends.
 * 4. (`normalizeQuote` only) strip `"`, `'`, spaces, tabs and `. , ; :` from both ends.
 *
 * Every character of the result remembers the index of the original code point it came from
 * (`offsets[i]`); an expansion (ﬁ → "fi") maps all its characters to the same original index, and a
 * collapsed whitespace run maps to its first whitespace character.
 */

import type { Span } from '../core/index.js';
import { CitegeistError } from '../core/index.js';

/** A normalised string and where each of its characters came from in `original`. */
export interface NormalizedText {
  /** The normalised text. */
  readonly text: string;
  /** `offsets[i]` = index in `original` of the code point that produced `text[i]`. */
  readonly offsets: Int32Array;
  /** The text that was normalised. */
  readonly original: string;
}

const FOLD = new Map<number, number>([
  [0x2018, 0x27],
  [0x2019, 0x27],
  [0x201a, 0x27],
  [0x201b, 0x27],
  [0x201c, 0x22],
  [0x201d, 0x22],
  [0x201e, 0x22],
  [0x201f, 0x22],
  [0x2013, 0x2d],
  [0x2014, 0x2d],
  [0x2212, 0x2d],
  [0x00a0, 0x20],
]);

const WHITESPACE = /\s/;

function isSpace(code: number): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  return code > 0x7f && WHITESPACE.test(String.fromCharCode(code));
}

/** The first `length` UTF-16 units of `codes` as a string (chunked: `apply` has an argument limit). */
export function codesToString(codes: Uint16Array, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 8192) {
    const chunk = codes.subarray(i, Math.min(i + 8192, length));
    text += String.fromCharCode.apply(null, chunk as unknown as number[]);
  }
  return text;
}

/** Growable output: UTF-16 units plus their original offsets. */
class Output {
  codes: Uint16Array;
  offsets: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.codes = new Uint16Array(capacity);
    this.offsets = new Int32Array(capacity);
  }

  push(code: number, offset: number): void {
    if (this.length === this.codes.length) {
      const codes = new Uint16Array(this.codes.length * 2 + 16);
      codes.set(this.codes);
      const offsets = new Int32Array(codes.length);
      offsets.set(this.offsets);
      this.codes = codes;
      this.offsets = offsets;
    }
    this.codes[this.length] = code;
    this.offsets[this.length++] = offset;
  }

  toText(): string {
    return codesToString(this.codes, this.length);
  }
}

/**
 * Normalises `text` per METHODS §1.2 rules 1–3 and returns the result with its offset map.
 * Runs in one pass; ASCII characters take a fast path.
 */
export function normalizeText(text: string): NormalizedText {
  return ASCII.test(text) ? normalizeAscii(text) : normalizeUnicode(text);
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The same rules for ASCII-only text, where NFKD and folding change nothing: native lowercase and
 * whitespace collapse build the string; one scan builds the offsets.
 */
function normalizeAscii(text: string): NormalizedText {
  const result = text.toLowerCase().replace(/\s+/g, ' ').trim();
  let offsets: Int32Array | undefined;
  // The offsets are built on first use: a quote that matches by a substring rule never needs them.
  return {
    text: result,
    get offsets(): Int32Array {
      offsets ??= asciiOffsets(text, result.length);
      return offsets;
    },
    original: text,
  };
}

/** The offset map of `normalizeAscii`: one scan of the original text. */
function asciiOffsets(text: string, length: number): Int32Array {
  const offsets = new Int32Array(length);
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  for (let n = 0; n < length; n++) {
    offsets[n] = i;
    if (isSpace(text.charCodeAt(i))) while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    else i++;
  }
  return offsets;
}

/** The general path (any text); `normalizeText` uses it for non-ASCII text. Exported for tests. */
export function normalizeUnicode(text: string): NormalizedText {
  const out = new Output(text.length + 16);
  let pendingSpace = -1; // original index of a whitespace run not yet written
  const emit = (code: number, offset: number) => {
    if (isSpace(code)) {
      if (pendingSpace < 0) pendingSpace = offset;
      return;
    }
    if (pendingSpace >= 0) {
      if (out.length > 0) out.push(0x20, pendingSpace);
      pendingSpace = -1;
    }
    out.push(code, offset);
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      emit(code >= 0x41 && code <= 0x5a ? code + 32 : code, i);
      continue;
    }
    const start = i;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    const decomposed = text.slice(start, i + 1).normalize('NFKD');
    for (let k = 0; k < decomposed.length; k++) {
      const c = decomposed.charCodeAt(k);
      const folded = FOLD.get(c) ?? c;
      if (folded < 0x80) {
        emit(folded >= 0x41 && folded <= 0x5a ? folded + 32 : folded, start);
        continue;
      }
      // Surrogate pairs stay together for lowercasing.
      let unit = String.fromCharCode(folded);
      if (folded >= 0xd800 && folded <= 0xdbff && k + 1 < decomposed.length) unit += decomposed[++k];
      const lower = unit.toLowerCase();
      for (let m = 0; m < lower.length; m++) emit(lower.charCodeAt(m), start);
    }
  }
  return { text: out.toText(), offsets: out.offsets.slice(0, out.length), original: text };
}

/** End (exclusive) in `original` of the code point that starts at `index`. */
function codePointEnd(original: string, index: number): number {
  const code = original.charCodeAt(index);
  if (code >= 0xd800 && code <= 0xdbff && index + 1 < original.length) {
    const next = original.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return index + 2;
  }
  return index + 1;
}

/**
 * Maps a `[start, end)` span of `normalized.text` to the span of `normalized.original` it came from:
 * from the original code point of the first character to the end of the original code point of
 * the last. An empty span maps to an empty span at the corresponding original position.
 */
export function toOriginalSpan(normalized: NormalizedText, start: number, end: number): Span {
  const { offsets, original } = normalized;
  if (start < 0 || end > offsets.length || start > end) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `toOriginalSpan: span [${start}, ${end}) is outside the normalised text (length ${offsets.length}).`,
      'Pass 0 ≤ start ≤ end ≤ the length of normalized.text.',
    );
  }
  if (start === end) {
    const at = start < offsets.length ? offsets[start]! : original.length;
    return { start: at, end: at };
  }
  return { start: offsets[start]!, end: codePointEnd(original, offsets[end - 1]!) };
}

const QUOTE_EDGE = new Set(['"', "'", '\u201c', '\u201d', '\u2018', '\u2019', ' ', '\t', '.', ',', ';', ':']);

/**
 * Normalises a quote: `normalizeText` then rule 4, stripping `" ' “ ” ‘ ’`, spaces, tabs and
 * `. , ; :` from both ends. Offsets still point into the original quote.
 */
export function normalizeQuote(quote: string): NormalizedText {
  const normalized = normalizeText(quote);
  const { text } = normalized;
  let start = 0;
  let end = text.length;
  while (start < end && QUOTE_EDGE.has(text[start]!)) start++;
  while (end > start && QUOTE_EDGE.has(text[end - 1]!)) end--;
  if (start === 0 && end === text.length) return normalized;
  let offsets: Int32Array | undefined;
  return {
    text: text.slice(start, end),
    get offsets(): Int32Array {
      offsets ??= normalized.offsets.slice(start, end);
      return offsets;
    },
    original: quote,
  };
}

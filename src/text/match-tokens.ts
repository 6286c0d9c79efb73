/**
 * The token view of a normalised text that the gapped quote rule and the nearest-passage search
 * work on. Tokens are runs of letters, combining marks, digits and `_`, or single other
 * non-space characters (punctuation and symbols are tokens too, so `p < 0.05` and `p > 0.05` differ).
 * A digit that came from a non-ASCII original character (a superscript footnote marker such as `¹`,
 * which NFKD turns into `1`) is split off into its own `sup` token, so `model¹` is `model` + `1`.
 */
import type { NormalizedText } from './normalize.js';

/** Token kinds: a word, one symbol character, or digits that came from superscripts or other
 * compatibility forms (footnote markers). */
export const TokenKind = { Word: 0, Symbol: 1, Sup: 2 } as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export interface MatchTokens {
  /** Number of tokens. */
  readonly length: number;
  /** `[start, end)` of each token in the normalised text. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly kind: Uint8Array;
  /** The token strings. */
  readonly text: string[];
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const SPACE_CHAR = /\s/;

/** 0 = space, 1 = word character, 2 = other (a one-character symbol token). */
function charClass(code: number): number {
  if (code < 0x80) {
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 0;
    if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a))
      return 1;
    return code === 0x5f ? 1 : 2;
  }
  const ch = String.fromCharCode(code);
  if (code >= 0xd800 && code <= 0xdfff) return 2;
  if (WORD_CHAR.test(ch)) return 1;
  return SPACE_CHAR.test(ch) ? 0 : 2;
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** True when normalised char i is a digit that came from a non-ASCII original (e.g. `¹`). */
function isSupDigit(normalized: NormalizedText, i: number): boolean {
  return (
    isAsciiDigit(normalized.text.charCodeAt(i)) &&
    normalized.original.charCodeAt(normalized.offsets[i]!) >= 0x80
  );
}

/** Tokenises a normalised text for matching (see the module comment). */
export function matchTokens(normalized: NormalizedText): MatchTokens {
  const { text } = normalized;
  const starts: number[] = [];
  const ends: number[] = [];
  const kinds: number[] = [];
  const texts: string[] = [];
  const push = (s: number, e: number, k: TokenKind) => {
    starts.push(s);
    ends.push(e);
    kinds.push(k);
    texts.push(text.slice(s, e));
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const cls = charClass(code);
    if (cls === 0) {
      i++;
      continue;
    }
    if (cls === 2) {
      // Astral symbols (surrogate pairs) stay one token.
      const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
      push(i, i + width, TokenKind.Symbol);
      i += width;
      continue;
    }
    const s = i;
    while (i < text.length && charClass(text.charCodeAt(i)) === 1) i++;
    // Split off runs of digits whose original character was not an ASCII digit.
    let runStart = s;
    for (let j = s; j < i; ) {
      if (!isSupDigit(normalized, j)) {
        j++;
        continue;
      }
      let k = j;
      while (k < i && isSupDigit(normalized, k)) k++;
      if (j > runStart) push(runStart, j, TokenKind.Word);
      push(j, k, TokenKind.Sup);
      runStart = k;
      j = k;
    }
    if (runStart < i) push(runStart, i, TokenKind.Word);
  }
  return {
    length: texts.length,
    start: new Int32Array(starts),
    end: new Int32Array(ends),
    kind: new Uint8Array(kinds),
    text: texts,
  };
}

/** True when tokens `i` (a word ending in a letter), `i+1` (`-`, touching `i`) and `i+2` (a word
 * starting with a letter) look like one word split by a line-break hyphen. */
export function isHyphenSplit(tokens: MatchTokens, i: number): boolean {
  if (i + 2 >= tokens.length) return false;
  if (tokens.kind[i] !== TokenKind.Word || tokens.kind[i + 2] !== TokenKind.Word) return false;
  if (tokens.text[i + 1] !== '-' || tokens.end[i] !== tokens.start[i + 1]) return false;
  return /\p{L}$/u.test(tokens.text[i]!) && /^\p{L}/u.test(tokens.text[i + 2]!);
}
